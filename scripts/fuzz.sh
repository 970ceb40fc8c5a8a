#!/usr/bin/env bash
# Builds the libFuzzer targets of the trace readers and the config parser (Fuzz/) and runs each
# for N executions (default 1000000), seeded from the shared traces, docs/example-config.toml
# and toml-test's files (../shared/conformance, read in place). Usage: scripts/fuzz.sh [RUNS]
# [TARGET...]. Targets: FuzzEvemu FuzzGetevent FuzzLibinputRecord FuzzConfig. Crashes are left as crash-* files in
# .build-fuzz-corpus/ARTIFACTS; a crash makes the script fail.
set -euo pipefail
cd "$(dirname "$0")/.."
export SWIFT_BACKTRACE=enable=no

runs=${1:-1000000}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzEvemu FuzzGetevent FuzzLibinputRecord FuzzConfig)

# The shared traces live beside the repository (../shared/traces); a worktree one level
# deeper finds them at ../../shared/traces.
traces=${TOUCHLINE_TRACES:-}
for candidate in ../shared/traces ../../shared/traces; do
    [ -n "$traces" ] && break
    [ -d "$candidate" ] && traces=$candidate
done
[ -n "$traces" ] || { echo "fuzz.sh: cannot find the shared traces (../shared/traces)" >&2; exit 1; }

swift build -c release --sanitize=fuzzer --package-path Fuzz
bin=$(swift build -c release --sanitize=fuzzer --package-path Fuzz --show-bin-path)

corpus=.build-fuzz-corpus
artifacts=$corpus/ARTIFACTS
mkdir -p "$artifacts"
seed() { # target, find arguments...
    local dir=$corpus/$1
    shift
    mkdir -p "$dir"
    find "$traces" -type f "$@" -exec cp -n {} "$dir/" \; 2>/dev/null || true
}
seed FuzzEvemu \( -name '*.evemu' -o -name '*.events' -o -name '*.desc' \)
seed FuzzGetevent -name '*.txt' -path '*MonkeyHelper*'
seed FuzzLibinputRecord -name '*.yml'
# Inputs are cut at 4 KiB, and a libinput record header with its comments is longer: also seed
# each file without its comment lines, so that its events fall within the first 4 KiB.
find "$traces" -type f -name '*.yml' -print0 | while IFS= read -r -d '' f; do
    { grep -v "^ *#" "$f" | head -c 4096 >"$corpus/FuzzLibinputRecord/nocomments-$(basename "$f")"; } || true
done

# The config parser: the example config, and every TOML file of toml-test (valid and invalid,
# 1.0 and 1.1) under a name made from its path, as the suite repeats file names.
mkdir -p "$corpus/FuzzConfig"
cp docs/example-config.toml "$corpus/FuzzConfig/example-config.toml"
conformance=$(dirname "$traces")/conformance/toml-test/tests
if [ -d "$conformance" ]; then
    find "$conformance" -type f -name '*.toml' -print0 | while IFS= read -r -d '' f; do
        cp "$f" "$corpus/FuzzConfig/$(echo "${f#"$conformance"/}" | tr / _)"
    done
else
    echo "fuzz.sh: no toml-test suite at $conformance; FuzzConfig starts from the example config only" >&2
fi

status=0
for target in "${targets[@]}"; do
    log=$corpus/$target.log
    echo "== $target: $runs runs"
    if "$bin/$target" -runs="$runs" -max_len=4096 -print_final_stats=1 \
        -artifact_prefix="$artifacts/$target-" "$corpus/$target" >"$log" 2>&1; then
        execs=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')
        rate=$(grep -m1 'stat::average_exec_per_sec' "$log" | awk '{print $2}')
        echo "$target: $execs executions, $rate exec/s, no crash"
    else
        status=1
        echo "$target: FAILED (see $log)"
        grep -E 'ERROR|Fatal error|panic|crash-' "$log" | head -20
    fi
done
exit $status
