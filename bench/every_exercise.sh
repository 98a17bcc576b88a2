#!/usr/bin/env bash
# Every exercise of every chapter, two tutor binaries interleaved (issue 28's targets):
#   warm re-check after an edit (a comment line added, then build + grade)
#       ≤ 1.4 × a rustc hello-world build, timed in the same rounds
#   tutor's own part of a check of an unchanged file ≤ 20 ms: the check's wall time less the
#       graded program's share, which tutor notes with TUTOR_BENCH_TIMING=<file> (its start and
#       the waits for its replies; a binary without the note shows its whole time as its own)
# and `tutor init` once per binary. Prints medians per exercise and binary.
#
# Where a warm re-check's time goes, from the same note: `build` is the build's share (rustc
# run directly on the learner's crate, see src/runner/replay.rs), also as a multiple of the
# hello-world in the same round; `graded` the graded program's; `own` the rest (tutor's own:
# start, harness, records, references and comparisons, report, progress). A binary older than
# the build's note (before issue 28's point 3) shows `-` for the build.
#
# Usage: bench/every_exercise.sh RUNS BIN_A [BIN_B]
#   e.g. bench/every_exercise.sh 7 /work/main/target/release/tutor target/release/tutor
#   With one binary, its figures alone (as `bench/speed.sh` runs it).
#   Each binary gets its own `tutor init` folder with this repository's solutions, which must
#   pass with both (the contracts of the two must agree).
#   EXERCISES="swiglu/02-linear attention/05-kv-cache" limits the rounds to those exercises.
set -euo pipefail
runs=$1
bins=("$2")
[ -n "${3:-}" ] && bins+=("$3")
sides=$(seq 0 $((${#bins[@]} - 1)))
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

# One check, timed: its wall time, the graded program's share and the build's, as tutor notes
# them with TUTOR_BENCH_TIMING (a binary without the note: graded 0, build "-").
timed_check() {
    rm -f "$TUTOR_BENCH_TIMING"
    local whole graded=0 build=-
    whole=$(seconds "$@")
    [ -f "$TUTOR_BENCH_TIMING" ] && read -r graded build < <(tail -1 "$TUTOR_BENCH_TIMING")
    echo "$whole $graded ${build:--}"
}

printf 'fn main() { println!("hello"); }\n' > "$work/hello.rs"
hello() { (cd "$work" && rustc hello.rs -o hello); }

exercises=()
if [ -n "${EXERCISES:-}" ]; then
    read -r -a exercises <<<"$EXERCISES"
else
    for course in $(ls "$repo/exercises"); do
        for file in "$repo/exercises/$course"/*.rs; do
            exercises+=("$course/$(basename "$file" .rs)")
        done
    done
fi

declare -A figures
for side in $sides; do
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
        h=$(seconds hello)
        figures[hello,$exercise]+="$h "
        for side in $sides; do
            dir="$work/$side/course"
            echo "// edit $i" >> "$dir/exercises/$exercise.rs"
            read -r warm graded build < <(cd "$dir" && timed_check "${bins[$side]}" check "$exercise")
            figures[$side,warm,$exercise]+="$warm "
            figures[$side,ratio,$exercise]+="$(awk -v a="$warm" -v b="$h" 'BEGIN {print a / b}') "
            figures[$side,graded,$exercise]+="$graded "
            if [ "$build" != - ]; then
                figures[$side,build,$exercise]+="$build "
                figures[$side,build_ratio,$exercise]+="$(awk -v a="$build" -v b="$h" 'BEGIN {print a / b}') "
                figures[$side,warm_own,$exercise]+="$(awk -v w="$warm" -v g="$graded" -v b="$build" 'BEGIN {print w - g - b}') "
            fi
            read -r unchanged graded _ < <(cd "$dir" && timed_check "${bins[$side]}" check "$exercise")
            figures[$side,unchanged,$exercise]+="$unchanged "
            figures[$side,own,$exercise]+="$(awk -v w="$unchanged" -v g="$graded" 'BEGIN {print w - g}') "
        done
    done
done
# The median of a list of seconds, in ms ("-" for none); of a list of ratios, as it is.
values() { tr ' ' '\n' <<<"$1" | grep . || true; }
ms() { local v; v=$(values "$1"); if [ -z "$v" ]; then echo -; else median <<<"$v" | awk '{printf "%.1f", $1 * 1000}'; fi; }
ratio() { local v; v=$(values "$1"); if [ -z "$v" ]; then echo -; else median <<<"$v" | awk '{printf "%.2f", $1}'; fi; }
for side in $sides; do
    echo
    printf '%s: %s, tutor init %.1f s\n' "$([ "$side" = 0 ] && echo A || echo B)" "${bins[$side]}" "${figures[$side,init]}"
    printf '%-28s %7s | %8s %5s | %8s %5s %7s %6s | %9s %6s\n' exercise hello warm "×" build "×" graded own unchanged own
    over=()
    for exercise in "${exercises[@]}"; do
        r=$(ratio "${figures[$side,ratio,$exercise]}")
        awk -v r="$r" 'BEGIN {exit !(r > 1.4)}' && over+=("$exercise $r")
        printf '%-28s %7s | %8s %5s | %8s %5s %7s %6s | %9s %6s\n' "$exercise" "$(ms "${figures[hello,$exercise]}")" \
            "$(ms "${figures[$side,warm,$exercise]}")" "$r" \
            "$(ms "${figures[$side,build,$exercise]:-}")" "$(ratio "${figures[$side,build_ratio,$exercise]:-}")" \
            "$(ms "${figures[$side,graded,$exercise]}")" "$(ms "${figures[$side,warm_own,$exercise]:-}")" \
            "$(ms "${figures[$side,unchanged,$exercise]}")" "$(ms "${figures[$side,own,$exercise]}")"
    done
    echo "over 1.4× (median of the per-round ratios): ${#over[@]} of ${#exercises[@]}${over:+: ${over[*]}}"
done
echo
echo "(ms, medians of $runs interleaved rounds; × is the median of each round's ratio to the hello-world"
echo " built in that round; own = wall less the graded program's share, and less the build's for warm)"
