#!/bin/sh
# Issue 37: the crash of 9b4ee5b's probe child, reproduced on purpose in its own test binary.
# The child (the test binary filtered to AllocationProbe, TOUCHLINE_ALLOCATION_PROBE=1) is run
# with two string-heavy suites beside it (--filter twice: swift-testing runs them in parallel
# on its other threads), so that other threads copy strings while the probe's HeapObjects.count
# has the runtime's swizzling switch on: what swift-testing's own threads did, now and then, in
# the whole-suite run. Prints, per run, the exit status, the probe's last line, the crashed
# thread's top frames and where the probe thread was (Swift's own backtracer).
#   scripts/issue37/old-probe-crash.sh CHECKOUT [RUNS]
# CHECKOUT: a worktree of 9b4ee5b (git worktree add /tmp/old 9b4ee5b), built here if needed.
set -u
[ $# -ge 1 ] || { echo "usage: $0 CHECKOUT-OF-9b4ee5b [RUNS]" >&2; exit 2; }
cd "$1" || exit 2
runs=${2:-5}
[ -x .build/debug/TouchlinePackageTests.xctest ] || swift build --build-tests >/dev/null 2>&1 \
    || { echo "old-probe-crash: the build in $1 failed" >&2; exit 2; }
err=${TMPDIR:-/tmp}/touchline-old-probe.err
died=0
for i in $(seq 1 "$runs"); do
    out=$(TOUCHLINE_ALLOCATION_PROBE=1 SWIFT_BACKTRACE=enable=yes,color=no,interactive=no \
        .build/debug/TouchlinePackageTests.xctest --testing-library swift-testing \
        --filter AllocationProbe --filter 'TouchlineTraceTests.BadInputTests|TouchlineConfigTests.TOMLTests' 2>"$err")
    status=$?
    last=$(printf '%s\n' "$out" | grep -E '^(control|keeping|scenario) ' | tail -n 1)
    echo "run $i: exit status $status; the probe's last line: ${last:-none}"
    [ "$status" -eq 0 ] && continue
    died=$((died + 1))
    grep -o 'Program crashed: [^*]*' "$err" | head -n 1 | sed 's/^/    /'
    awk '/^Thread [0-9]+ .*crashed:/{print "    " $0; on=1; next} on && /^ *[0-9]+ /{print "      " $0; n++} n==3{exit}' "$err"
    grep -m 2 -E 'HeapObjects.count|AllocationProbe.probe\(\) \+' "$err" | sed 's/^ */    the probe thread: /'
done
echo "$died of $runs runs died"
