#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer: `swift test --sanitize=address`, built in its
# own scratch path (.build-asan) so that it never fights the normal build. The CLI tests run the
# `touchline` built beside the test bundle, so the binary they start is sanitized too. Every
# process (the test runner and each `touchline` a test starts) writes its AddressSanitizer
# report to .build-asan/asan-logs/, so that a finding in a subprocess counts even when the test
# that started it only looked at its exit status.
#
# Usage: scripts/asan.sh [swift test arguments, e.g. --filter ReplayTests]
# Exit status: 0 when the tests pass and no report was written; 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."

scratch=.build-asan
logs=$scratch/asan-logs
rm -rf "$logs"
mkdir -p "$logs"

# The Swift runtime's backtracer and AddressSanitizer both want the fatal signals; ASan reports.
export SWIFT_BACKTRACE=enable=no
# halt_on_error: the first finding ends the process; log_path: one file per process (pid suffix).
# detect_leaks=0: the interned names (UnsafeStorage.swift) and the runtime's metadata caches live
# as long as the process on purpose; a leak check is not what this run is for.
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:detect_leaks=0:log_path=$PWD/$logs/asan:${ASAN_OPTIONS:-}"

log=$scratch/asan-test.log
echo "asan.sh: swift test --sanitize=address --scratch-path $scratch $*" >&2
swift test --sanitize=address --scratch-path "$scratch" "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

reports=$(find "$logs" -type f -name 'asan*' | sort)
count=$(printf '%s' "$reports" | grep -c . || true)
summary=$(grep -E "Test run with [0-9]+ tests?.*(passed|failed)" "$log" | tail -1)
xctest=$(grep -E "Executed [0-9]+ tests?" "$log" | tail -1)

echo
echo "=== AddressSanitizer summary ==="
echo "swift test exit status: $status"
[ -n "$summary" ] && echo "Swift Testing: $summary"
[ -n "$xctest" ] && echo "XCTest: $xctest"
echo "AddressSanitizer reports: $count (in $logs)"
if [ "$count" -gt 0 ]; then
    for r in $reports; do
        echo "--- $r"
        grep -E "ERROR: AddressSanitizer|SUMMARY: AddressSanitizer" "$r" | head -3
    done
fi
if [ "$status" -ne 0 ] || [ "$count" -gt 0 ]; then
    echo "asan.sh: FAILED"
    exit 1
fi
echo "asan.sh: clean"
