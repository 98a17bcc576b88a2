#!/usr/bin/env bash
# Speed benchmark for tutor: prints medians. Targets (from the issues):
#   warm re-check (one line of the exercise edited, then build + grade)     ≤ 0.15 s
#     measured twice: a comment line added (what earlier figures measured; rustc reuses every
#     part of its last compile), and a line of code added to `norm` (its code is compiled again)
#   first check after `tutor init` (dependencies already built by init)     ≤ 1 s
#   first check with the harness not yet built                              ≤ 6 s
#   `tutor list` and `tutor hint`                                           ≤ 20 ms
#   every exercise of every chapter, last (bench/every_exercise.sh, one binary): a warm re-check
#   ≤ 1.4 × a rustc hello-world built in the same round, tutor's own part of an unchanged check
#   ≤ 20 ms
# Usage: bench/speed.sh [RUNS] [TUTOR_BINARY]
#   RUNS defaults to 9. TUTOR_BINARY defaults to this repository's release build (built first);
#   pass another binary (say, an older release) to compare two versions on the same machine.
set -euo pipefail
runs=${1:-9}
repo=$(cd "$(dirname "$0")/.." && pwd)
tutor=${2:-}
if [ -z "$tutor" ]; then
    cargo build --release --quiet --manifest-path "$repo/Cargo.toml"
    tutor="$repo/target/release/tutor"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export NO_COLOR=1 TUTOR_LANG=en

fresh_workspace() {
    rm -rf "$work/ws" && mkdir -p "$work/ws" && cp -r "$repo/exercises" "$work/ws/"
    cp "$repo/solutions/rmsnorm/02-norm.rs" "$work/ws/exercises/rmsnorm/02-norm.rs"
}

# Runs "$@" and prints the elapsed seconds.
seconds() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN {print b - a}'
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

cold=()
for _ in $(seq 1 3); do
    fresh_workspace
    cold+=("$(cd "$work/ws" && seconds "$tutor" check 02-norm)")
done

after_init=(); swiglu_after_init=(); attention_after_init=()
for _ in $(seq 1 3); do
    rm -rf "$work/init"
    mkdir -p "$work/init"
    (cd "$work/init" && "$tutor" init course >/dev/null 2>&1)
    cp "$repo/solutions/rmsnorm/02-norm.rs" "$work/init/course/exercises/rmsnorm/02-norm.rs"
    after_init+=("$(cd "$work/init/course" && seconds "$tutor" check 02-norm)")
    # Chapter 2 (where this tutor carries it): its first check in the same fresh folder.
    if [ -f "$work/init/course/exercises/swiglu/info.toml" ]; then
        cp "$repo/solutions/swiglu/04-forward.rs" "$work/init/course/exercises/swiglu/04-forward.rs"
        swiglu_after_init+=("$(cd "$work/init/course" && seconds "$tutor" check swiglu/04)")
    fi
    # Chapter 3: its heaviest check (the KV cache's: every case runs, the cached decode too).
    if [ -f "$work/init/course/exercises/attention/info.toml" ]; then
        cp "$repo/solutions/attention/05-kv-cache.rs" "$work/init/course/exercises/attention/05-kv-cache.rs"
        attention_after_init+=("$(cd "$work/init/course" && seconds "$tutor" check attention/05)")
    fi
done
# Chapter 3, every exercise: its solution checked again after a comment edit (the bound of "one
# exercise, one program" holds for each check, whatever its cases).
attention_warm=()
if [ ${#attention_after_init[@]} -gt 0 ]; then
    for exercise in "$repo"/solutions/attention/*.rs; do
        name=$(basename "$exercise" .rs)
        cp "$exercise" "$work/init/course/exercises/attention/$name.rs"
        (cd "$work/init/course" && "$tutor" check "attention/$name" >/dev/null 2>&1 || true)
        times=()
        for i in $(seq 1 "$runs"); do
            echo "// edit $i" >> "$work/init/course/exercises/attention/$name.rs"
            times+=("$(cd "$work/init/course" && seconds "$tutor" check "attention/$name")")
        done
        attention_warm+=("$name $(printf '%s\n' "${times[@]}" | median)")
    done
fi
swiglu_warm=()
if [ ${#swiglu_after_init[@]} -gt 0 ]; then
    for i in $(seq 1 "$runs"); do
        echo "// edit $i" >> "$work/init/course/exercises/swiglu/04-forward.rs"
        swiglu_warm+=("$(cd "$work/init/course" && seconds "$tutor" check swiglu/04)")
    done
fi

fresh_workspace
(cd "$work/ws" && "$tutor" check 02-norm >/dev/null 2>&1 || true)
warm=()
for i in $(seq 1 "$runs"); do
    echo "// edit $i" >> "$work/ws/exercises/rmsnorm/02-norm.rs"
    warm+=("$(cd "$work/ws" && seconds "$tutor" check 02-norm)")
done
# A line of code that changes nothing but the program: `norm` is compiled again each time.
code_edit=()
for i in $(seq 1 "$runs"); do
    sed "s/let last = Axis/let _edit = $i.0_f32;\n        let last = Axis/" \
        "$repo/solutions/rmsnorm/02-norm.rs" > "$work/ws/exercises/rmsnorm/02-norm.rs"
    grep -q "let _edit" "$work/ws/exercises/rmsnorm/02-norm.rs" || { echo "the code edit no longer applies" >&2; exit 2; }
    code_edit+=("$(cd "$work/ws" && seconds "$tutor" check 02-norm)")
done
unchanged=()
for _ in $(seq 1 "$runs"); do
    unchanged+=("$(cd "$work/ws" && seconds "$tutor" check 02-norm)")
done

list=(); hint=()
for _ in $(seq 1 "$runs"); do
    list+=("$(cd "$work/ws" && seconds "$tutor" list)")
    hint+=("$(cd "$work/ws" && seconds "$tutor" hint 02-norm)")
done

echo "tutor: $tutor"
printf 'first check (cold harness), median of 3:  %.3f s   (target ≤ 6 s)\n' "$(printf '%s\n' "${cold[@]}" | median)"
printf 'first check after init, median of 3:      %.3f s   (target ≤ 1 s)\n' "$(printf '%s\n' "${after_init[@]}" | median)"
printf 'warm re-check, median of %d:               %.3f s   (target ≤ 0.15 s)\n' "$runs" "$(printf '%s\n' "${warm[@]}" | median)"
printf '  … after a code edit, median of %d:        %.3f s   (target ≤ 0.15 s)\n' "$runs" "$(printf '%s\n' "${code_edit[@]}" | median)"
printf 'check of an unchanged file, median of %d:  %.3f s\n' "$runs" "$(printf '%s\n' "${unchanged[@]}" | median)"
if [ ${#swiglu_warm[@]} -gt 0 ]; then
    printf 'swiglu/04 first check after init, median of 3: %.3f s\n' "$(printf '%s\n' "${swiglu_after_init[@]}" | median)"
    printf 'swiglu/04 warm re-check, median of %d:     %.3f s\n' "$runs" "$(printf '%s\n' "${swiglu_warm[@]}" | median)"
fi
if [ ${#attention_warm[@]} -gt 0 ]; then
    printf 'attention/05 first check after init, median of 3: %.3f s\n' "$(printf '%s\n' "${attention_after_init[@]}" | median)"
    for entry in "${attention_warm[@]}"; do
        printf 'attention/%s warm re-check, median of %d: %.3f s\n' "${entry% *}" "$runs" "${entry##* }"
    done
fi
printf 'tutor list, median of %d:                  %.1f ms  (target ≤ 20 ms)\n' "$runs" "$(printf '%s\n' "${list[@]}" | median | awk '{print $1 * 1000}')"
printf 'tutor hint, median of %d:                  %.1f ms  (target ≤ 20 ms)\n' "$runs" "$(printf '%s\n' "${hint[@]}" | median | awk '{print $1 * 1000}')"
echo
echo "every exercise of every chapter (bench/every_exercise.sh):"
"$repo/bench/every_exercise.sh" "$runs" "$tutor"
