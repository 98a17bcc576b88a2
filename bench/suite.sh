#!/usr/bin/env bash
# The test suite's time: the README's test command (`cargo test`) from an EMPTY target folder.
# Budget (issue 30): at most 20 minutes on a 2-core machine with three chapters.
# Prints the build (`cargo test --no-run`), then each test binary's run (and each package's doc
# tests), then the total. On a shared machine the figure is an upper bound.
# Usage: bench/suite.sh [TARGET_DIR]   (default: a new temporary folder, removed afterwards)
set -euo pipefail
cd "$(dirname "$0")/.."
keep=${1:-}
target=${keep:-$(mktemp -d /tmp/tutor-suite-XXXXXX)}
if [ -z "$keep" ]; then trap 'rm -rf "$target"' EXIT; fi
export CARGO_TARGET_DIR=$target
log=$(mktemp /tmp/tutor-suite-log-XXXXXX)
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%7.1f", b - a }'; }

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); target: $target"
t0=$(now)
cargo test --no-run --message-format=json 2>"$log.build" >"$log.json" || { tail -30 "$log.build"; exit 1; }
t1=$(now)
printf '%s s  cargo test --no-run (from empty)\n' "$(secs "$t0" "$t1")"

# Every test target cargo built: package, kind, name (as `cargo test` runs them, in its order).
targets=$(python3 - "$log.json" <<'PY'
import json, sys
seen = []
for line in open(sys.argv[1]):
    m = json.loads(line)
    if m.get("reason") != "compiler-artifact" or not m.get("profile", {}).get("test"):
        continue
    pkg = m["package_id"]
    # `path+file:///…#name@0.1.0` or `…#0.1.0` (the folder's name is the package's).
    frag = pkg.split("#", 1)[1]
    name = frag.split("@")[0] if "@" in frag else pkg.split("#")[0].rstrip("/").split("/")[-1]
    kind = m["target"]["kind"][0]
    row = (name, kind, m["target"]["name"])
    if row not in seen:
        seen.append(row)
for name, kind, target in seen:
    print(name, kind, target)
PY
)
total_run=0
while read -r package kind name; do
    case $kind in
        lib|rlib|proc-macro) flags=(--lib) ;;
        bin) flags=(--bin "$name") ;;
        test) flags=(--test "$name") ;;
        *) flags=(--"$kind" "$name") ;;
    esac
    s=$(now)
    if ! cargo test -q -p "$package" "${flags[@]}" >"$log.run" 2>&1; then
        echo "FAILED: $package ${flags[*]}"; tail -40 "$log.run"; status=1
    fi
    e=$(now)
    printf '%s s  %s %s\n' "$(secs "$s" "$e")" "$package" "${flags[*]}"
done <<<"$targets"
for package in $(printf '%s\n' "$targets" | awk '$2 == "lib" { print $1 }' | sort -u); do
    s=$(now)
    cargo test -q -p "$package" --doc >"$log.run" 2>&1 || { echo "FAILED: $package --doc"; tail -20 "$log.run"; status=1; }
    e=$(now)
    printf '%s s  %s --doc\n' "$(secs "$s" "$e")" "$package"
done
t2=$(now)
printf '%s s  running every test binary\n' "$(secs "$t1" "$t2")"
printf '%s s  TOTAL (budget 1200 s)\n' "$(secs "$t0" "$t2")"
rm -f "$log" "$log".*
exit "${status:-0}"
