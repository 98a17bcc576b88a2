#!/usr/bin/env bash
# Every exercise of every chapter, two tutor binaries interleaved (issue 28's targets):
#   warm re-check after an edit (a comment line added, then build + grade)
#       ≤ 1.4 × a rustc hello-world build, timed in the same rounds
#   tutor's own part of a check of an unchanged file ≤ 20 ms: the check's wall time less the
#       graded program's share, which tutor notes with TUTOR_BENCH_TIMING=<file> (its start and
#       the waits for its replies; a binary without the note shows its whole time as its own)
# and `tutor init` once per binary. Prints medians per exercise and binary.
# Usage: bench/every_exercise.sh RUNS BIN_A BIN_B
#   e.g. bench/every_exercise.sh 7 /work/main/target/debug/tutor target/debug/tutor
#   Each binary gets its own `tutor init` folder with this repository's solutions, which must
#   pass with both (the contracts of the two must agree).
set -euo pipefail
runs=$1
bins=("$2" "$3")
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Set for every run alike, so that no check sees another environment than the one before it.
export NO_COLOR=1 TUTOR_LANG=en TUTOR_BENCH_TIMING=$work/timing

seconds() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN {print b - a}'
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# The graded program's share of a check, as tutor notes it with TUTOR_BENCH_TIMING (its start
# and the waits for its replies; a binary without the note counts as 0: its "own" is the whole).
timed_check() {
    rm -f "$TUTOR_BENCH_TIMING"
    local whole graded=0
    whole=$(seconds "$@")
    [ -f "$TUTOR_BENCH_TIMING" ] && graded=$(tail -1 "$TUTOR_BENCH_TIMING")
    awk -v w="$whole" -v g="$graded" 'BEGIN {print w, w - g}'
}

printf 'fn main() { println!("hello"); }\n' > "$work/hello.rs"
hello() { (cd "$work" && rustc hello.rs -o hello); }

exercises=()
for course in $(ls "$repo/exercises"); do
    for file in "$repo/exercises/$course"/*.rs; do
        exercises+=("$course/$(basename "$file" .rs)")
    done
done

declare -A figures
for side in 0 1; do
    mkdir -p "$work/$side"
    figures[$side,init]=$(cd "$work/$side" && seconds "${bins[$side]}" init course)
    for exercise in "${exercises[@]}"; do
        cp "$repo/solutions/$exercise.rs" "$work/$side/course/exercises/$exercise.rs"
        (cd "$work/$side/course" && "${bins[$side]}" check "$exercise" >/dev/null 2>&1) \
            || { echo "$exercise does not pass with ${bins[$side]}" >&2; exit 2; }
    done
done
for i in $(seq 1 "$runs"); do
    for exercise in "${exercises[@]}"; do
        figures[hello,$exercise]+="$(seconds hello) "
        for side in 0 1; do
            dir="$work/$side/course"
            echo "// edit $i" >> "$dir/exercises/$exercise.rs"
            figures[$side,warm,$exercise]+="$(cd "$dir" && seconds "${bins[$side]}" check "$exercise") "
            read -r unchanged own < <(cd "$dir" && timed_check "${bins[$side]}" check "$exercise")
            figures[$side,unchanged,$exercise]+="$unchanged "
            figures[$side,own,$exercise]+="$own "
        done
    done
done
ms() { tr ' ' '\n' <<<"$1" | grep . | median | awk '{printf "%.1f", $1 * 1000}'; }
for side in 0 1; do
    printf '%s: tutor init %.1f s\n' "${bins[$side]}" "${figures[$side,init]}"
done
printf '%-22s %8s | %9s %6s %9s %7s | %9s %6s %9s %7s\n' exercise hello "warm A" "×" "unch. A" "own A" "warm B" "×" "unch. B" "own B"
for exercise in "${exercises[@]}"; do
    h=$(ms "${figures[hello,$exercise]}")
    line=$(printf '%-22s %6s ms' "$exercise" "$h")
    for side in 0 1; do
        w=$(ms "${figures[$side,warm,$exercise]}")
        line+=$(printf ' | %6s ms %5.2f %6s ms %4s ms' "$w" "$(awk -v a="$w" -v b="$h" 'BEGIN {print a / b}')" \
            "$(ms "${figures[$side,unchanged,$exercise]}")" "$(ms "${figures[$side,own,$exercise]}")")
    done
    echo "$line"
done
