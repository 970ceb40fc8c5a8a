#!/usr/bin/env bash
# Runs the whole test suite N times on one build and prints `P/N passed`: a flaky test shows
# here before it shows in CI (issue 37: one whole-suite run in three failed). Each run's log is
# kept in $OUT (default .build/repeat-tests/), a failing run's issues are printed, and child
# processes may dump core there (ulimit -c unlimited) so that a crash can be read with gdb.
#
# Usage: scripts/repeat-tests.sh [N] [swift test arguments, e.g. --filter AllocationTests]
#   N defaults to 20. Exit status 0 only when every run passed.
set -uo pipefail
cd "$(dirname "$0")/.."
n=${1:-20}
shift || true
out=${OUT:-.build/repeat-tests}
mkdir -p "$out"
ulimit -c unlimited 2>/dev/null || true

swift build --build-tests >"$out/build.log" 2>&1 || { tail -n 20 "$out/build.log"; echo "repeat-tests: the build failed" >&2; exit 2; }

passed=0
for i in $(seq 1 "$n"); do
    log="$out/run-$i.log"
    start=$SECONDS
    swift test --skip-build "$@" >"$log" 2>&1
    status=$?
    summary=$(grep -aE 'Test run with [0-9]+ tests?' "$log" | tail -n 1)
    if [ "$status" -eq 0 ] && grep -qaE 'Test run with [0-9]+ tests? .*passed' "$log"; then
        passed=$((passed + 1))
        echo "run $i: passed in $((SECONDS - start)) s: $summary"
    else
        echo "run $i: FAILED (status $status) in $((SECONDS - start)) s: $summary"
        grep -aE '✘|error:|Fatal error|signal' "$log" | head -n 20 | sed 's/^/    /'
    fi
done
echo "$passed/$n passed"
[ "$passed" -eq "$n" ]
