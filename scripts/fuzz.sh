#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/) and runs each for a number of executions or a time:
#   FuzzEvemu FuzzGetevent FuzzLibinputRecord  the trace readers, one per format
#   FuzzReplay       the whole of `touchline replay` (reader, assemblers, graphs, JSON) on any bytes
#   FuzzConfig       the config parser (and building the graph)
#   FuzzGraphConfig  a config that parses, built and driven through a touch script
#   FuzzDaemonConfig  the daemon's config ([[device]] globs, rotation and calibration applied,
#                    the graph on the turned frames, [[action]] matching)
#   FuzzSocketMessage  a client's line on the event socket (TouchlineLive's ClientMessageParser)
#   FuzzJSONReader   TouchlineCore's JSONReader alone: a value or a placed error, and values read back
#   FuzzCalibration  `calibrate --points`, the udev property LIBINPUT_CALIBRATION_MATRIX, the fit,
#                    and the daemon's view lines as `calibrate --daemon` reads them
# Seeds come from the shared traces, Recordings/, the docs' and tests' configs and toml-test's
# files (scripts/fuzz-seeds.py). The corpus (seeds and what the fuzzer found) is kept in
# .build-fuzz-corpus/TARGET between runs.
#
# Usage: scripts/fuzz.sh [BUDGET] [TARGET...]
#   BUDGET: executions per target (1000000, the default), or a time per target: 30s, 2m, 1h.
# Prints per target its executions, executions per second and "no crash". A crash fails the
# script, and so does an input that runs 30 s or exhausts memory; the input is kept as
# .build-fuzz-corpus/ARTIFACTS/TARGET-crash-* (-timeout-*, -oom-*), and
# `Fuzz/.build/release/TARGET FILE` runs it again.
set -euo pipefail
cd "$(dirname "$0")/.."
export SWIFT_BACKTRACE=enable=no

all=(FuzzEvemu FuzzGetevent FuzzLibinputRecord FuzzReplay FuzzConfig FuzzGraphConfig FuzzDaemonConfig FuzzSocketMessage FuzzJSONReader FuzzCalibration)
budget=${1:-1000000}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
case $budget in
    *[0-9]s) limit=(-max_total_time="${budget%s}"); what="${budget%s} s" ;;
    *[0-9]m) limit=(-max_total_time="$((${budget%m} * 60))"); what="${budget%m} min" ;;
    *[0-9]h) limit=(-max_total_time="$((${budget%h} * 3600))"); what="${budget%h} h" ;;
    *[!0-9]* | "") echo "fuzz.sh: BUDGET is a number of executions or a time such as 30s, 2m, 1h; got '$budget'" >&2; exit 64 ;;
    *) limit=(-runs="$budget"); what="$budget runs" ;;
esac
for target in "${targets[@]}"; do
    [[ " ${all[*]} " == *" $target "* ]] || { echo "fuzz.sh: no target '$target'; targets: ${all[*]}" >&2; exit 64; }
done

# The shared traces live beside the repository (../shared/traces); a worktree one level
# deeper finds them at ../../shared/traces.
traces=${TOUCHLINE_TRACES:-}
for candidate in ../shared/traces ../../shared/traces; do
    [ -n "$traces" ] && break
    [ -d "$candidate" ] && traces=$candidate
done
[ -n "$traces" ] || { echo "fuzz.sh: cannot find the shared traces (../shared/traces)" >&2; exit 1; }

corpus=.build-fuzz-corpus
artifacts=$corpus/ARTIFACTS
mkdir -p "$artifacts"
if ! swift build -c release --sanitize=fuzzer --package-path Fuzz >"$corpus/build.log" 2>&1; then
    grep -vE '^\[[0-9]+/[0-9]+\]' "$corpus/build.log" | tail -40
    echo "fuzz.sh: the fuzz targets do not build (log: $corpus/build.log)" >&2
    exit 1
fi
bin=$(swift build -c release --sanitize=fuzzer --package-path Fuzz --show-bin-path)
for target in "${targets[@]}"; do
    [ -x "$bin/$target" ] || { echo "fuzz.sh: the build did not make $bin/$target" >&2; exit 1; }
done

python3 scripts/fuzz-seeds.py "$traces" "$corpus" "$(dirname "$traces")/conformance/toml-test/tests"

status=0
for target in "${targets[@]}"; do
    log=$corpus/$target.log
    max_len=4096
    extra=()
    case $target in
        FuzzReplay) max_len=8192 ;;
        FuzzConfig | FuzzGraphConfig) extra=(-dict=Fuzz/config.dict) ;;
        FuzzSocketMessage | FuzzJSONReader) max_len=5000; extra=(-dict=Fuzz/socket.dict) ;;
    esac
    echo "== $target: $what"
    # Where FuzzSupport saves an input whose crash kept libFuzzer from saving it.
    saved=$artifacts/$target-crash-saved-$(date +%Y%m%d-%H%M%S)
    if FUZZ_CRASH_INPUT=$saved "$bin/$target" "${limit[@]}" -max_len=$max_len "${extra[@]}" -print_final_stats=1 \
        -timeout=30 -artifact_prefix="$artifacts/$target-" "$corpus/$target" >"$log" 2>&1; then
        execs=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')
        rate=$(grep -m1 'stat::average_exec_per_sec' "$log" | awk '{print $2}')
        echo "$target: $execs executions, $rate exec/s, no crash"
    else
        status=1
        echo "$target: CRASH (log: $log)"
        grep -E 'ERROR|Fatal error|panic|Test unit written to|saved as|SUMMARY' "$log" | head -20
        grep -qE 'Test unit written to|saved as' "$log" || echo "$target: no input was saved; see the log"
    fi
done
exit $status
