#!/usr/bin/env bash
# Every exercise of every chapter, two tutor binaries interleaved (issue 28's targets):
#   warm re-check after an edit (a comment line added, then build + grade)
#       ≤ 1.4 × a rustc hello-world build, timed in the same rounds
#   tutor's own part of a check of an unchanged file ≤ 20 ms: the check's wall time less the
#       graded program's (from its exec to its exit, as `strace -f` stamps them)
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
export NO_COLOR=1 TUTOR_LANG=en

seconds() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN {print b - a}'
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# The graded program's share of a check: from the exec of a program under the harness's
# target/ to the exit of that process, as strace stamps them (tutor itself and cargo excluded).
graded_seconds() {
    local log=$work/strace.log
    strace -f -qq -ttt -e trace=execve,exit_group -o "$log" "$@" >/dev/null 2>&1 || true
    awk '
        /execve\(".*\/\.tutor\/harness\/target\// && !/resumed/ { start[$1] = $2 }
        /exit_group\(/ { if ($1 in start) { total += $2 - start[$1]; delete start[$1] } }
        /\+\+\+ exited/ { if ($1 in start) { total += $2 - start[$1]; delete start[$1] } }
        END { print total + 0 }' "$log"
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
            whole=$(cd "$dir" && seconds "${bins[$side]}" check "$exercise")
            graded=$(cd "$dir" && graded_seconds "${bins[$side]}" check "$exercise")
            unchanged=$(cd "$dir" && seconds "${bins[$side]}" check "$exercise")
            figures[$side,unchanged,$exercise]+="$unchanged "
            # tutor's own part: an unchanged check less what its graded program took (the
            # strace'd run gives the program's share; the untraced runs the whole).
            figures[$side,own,$exercise]+="$(awk -v w="$whole" -v u="$unchanged" -v g="$graded" 'BEGIN {print (w < u ? w : u) - g}') "
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
