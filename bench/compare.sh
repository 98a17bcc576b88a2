#!/usr/bin/env bash
# Before/after speed, interleaved: two tutor binaries take turns on the same machine, so that
# load drifts hit both alike. Each gets its own `tutor init` folder with its own solutions.
# Prints the median of every figure for each binary.
# Usage: bench/compare.sh RUNS EXERCISE BIN_A SOLUTIONS_A BIN_B SOLUTIONS_B
#   EXERCISE: course/id, e.g. rmsnorm/04-backward; SOLUTIONS_x: a folder holding <id>.rs for it
#   (e.g. `git show OLD:solutions/rmsnorm/04-backward.rs > old/04-backward.rs` for an older
#   binary whose contract differs).
set -euo pipefail
runs=$1 exercise=$2
bins=("$3" "$5") sols=("$4" "$6")
course=${exercise%%/*} id=${exercise#*/}
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

declare -A figures
for side in 0 1; do
    mkdir -p "$work/$side"
    (cd "$work/$side" && "${bins[$side]}" init course >/dev/null 2>&1)
    cp "${sols[$side]}/$id.rs" "$work/$side/course/exercises/$course/$id.rs"
    figures[$side,first]=$(cd "$work/$side/course" && seconds "${bins[$side]}" check "$exercise")
    # The answer must pass, or the figures time a failure.
    (cd "$work/$side/course" && "${bins[$side]}" check "$exercise" >/dev/null 2>&1) \
        || { echo "the solution does not pass with ${bins[$side]}" >&2; exit 2; }
done
for i in $(seq 1 "$runs"); do
    for side in 0 1; do
        dir="$work/$side/course"
        echo "// edit $i" >> "$dir/exercises/$course/$id.rs"
        figures[$side,warm]+="$(cd "$dir" && seconds "${bins[$side]}" check "$exercise") "
        figures[$side,unchanged]+="$(cd "$dir" && seconds "${bins[$side]}" check "$exercise") "
        figures[$side,list]+="$(cd "$dir" && seconds "${bins[$side]}" list) "
    done
done
for side in 0 1; do
    echo "${bins[$side]} ($exercise, $runs interleaved runs, medians):"
    printf '  first check after init:      %.3f s (one run)\n' "${figures[$side,first]}"
    for f in warm unchanged list; do
        printf '  %-28s %.1f ms\n' "$f:" "$(tr ' ' '\n' <<<"${figures[$side,$f]}" | grep . | median | awk '{print $1 * 1000}')"
    done
done
