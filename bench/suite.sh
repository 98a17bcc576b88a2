#!/usr/bin/env bash
# The test suite's time: the README's test command (`cargo test`) from an EMPTY target folder.
# Budget (issue 30): at most 20 minutes on a 2-core machine with three chapters.
# Prints the build (`cargo test --no-run`), then each test binary's run with its slowest tests
# (SLOWEST=8), each package's doc tests, then the total. On a shared machine the figure is an upper bound.
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

# Every test binary cargo built: package, its folder, the binary, its target (kind:name).
targets=$(python3 - "$log.json" <<'PY'
import json, os, sys
seen = set()
for line in open(sys.argv[1]):
    m = json.loads(line)
    if m.get("reason") != "compiler-artifact" or not m.get("profile", {}).get("test") or not m.get("executable"):
        continue
    if m["executable"] in seen:
        continue
    seen.add(m["executable"])
    pkg = m["package_id"]
    frag = pkg.split("#", 1)[1]
    name = frag.split("@")[0] if "@" in frag else pkg.split("#")[0].rstrip("/").split("/")[-1]
    print(name, os.path.dirname(m["manifest_path"]), m["executable"], m["target"]["kind"][0] + ":" + m["target"]["name"])
PY
)
# Run as `cargo test` runs them (in the package's folder), with each test's time when libtest
# gives it (`--report-time`, unstable: RUSTC_BOOTSTRAP for the test binary only, nothing rebuilt).
CARGO=${CARGO:-$(command -v cargo)}
export CARGO
while read -r package dir binary target; do
    s=$(now)
    if ! (cd "$dir" && RUSTC_BOOTSTRAP=1 "$binary" -Z unstable-options --report-time >"$log.run" 2>&1); then
        echo "FAILED: $package $target"; grep -E "FAILED|panicked" "$log.run" | head -40 || true; status=1
    fi
    e=$(now)
    printf '%s s  %s %s\n' "$(secs "$s" "$e")" "$package" "$target"
    # The slowest tests of the binary.
    grep -E '^test .* <[0-9.]+s>$' "$log.run" | sed -E 's/^test (.*) \.\.\. .* <([0-9.]+)s>$/\2 \1/' \
        | sort -rn | head -"${SLOWEST:-8}" | awk '{ printf "          %7.1f s  %s\n", $1, $2 }' || true
done <<<"$targets"
for package in $(printf '%s\n' "$targets" | awk '$4 ~ /^lib:/ { print $1 }' | sort -u); do
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
