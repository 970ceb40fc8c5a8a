#!/bin/sh
# Issue 37: the probe child's SIGSEGV reproduced on purpose, with its faulting frame.
# 9b4ee5b's in-process counter (verbatim in counter-race.swift) turns on the runtime's
# "swizzle allocation and refcounting" switch. On Swift 6.3 every retain then goes through
# _swift_retain_adapterImpl, which masks a string's flag bits before testing them: an immortal
# string (any literal of 16 bytes or more) becomes a pointer to its own bytes in read-only data,
# and __swift_retain_ faults writing a refcount there. Any thread that copies such a string
# while the switch is on dies; in the test binary those were swift-testing's threads (test
# comments, names, #filePath) beside the probe, which is why only whole-suite timing showed it.
# Each mode runs RUNS times (default 5) and prints how each run ended and the crashed
# thread's top frames (from Swift's own backtracer).
#   scripts/issue37/adapter-crash.sh [RUNS]
set -u
dir=$(cd "$(dirname "$0")" && pwd)
out=${TMPDIR:-/tmp}/touchline-adapter-crash
swiftc -Onone -g "$dir/counter-race.swift" -o "$out" 2>/dev/null || { echo "adapter-crash: swiftc failed" >&2; exit 2; }
runs=${1:-5}
for mode in same-thread other-thread other-thread-short no-count; do
    crashed=0 frames=""
    for _ in $(seq 1 "$runs"); do
        SWIFT_BACKTRACE=enable=yes,color=no,interactive=no "$out" "$mode" >/dev/null 2>"$out.err"
        status=$?
        if [ "$status" -ne 0 ]; then
            crashed=$((crashed + 1))
            frames=$(awk '/^Thread [0-9]+ .*crashed:/{print "    " $0; on=1; next} on && /^ *[0-9]+ /{print; n++} n==3{exit}' "$out.err" | sed 's/^ */      /')
            signal=$(grep -o 'Program crashed: [^*]*' "$out.err" | head -n 1)
        fi
    done
    echo "$mode: $crashed of $runs runs died"
    [ "$crashed" -gt 0 ] && echo "    $signal" && echo "$frames"
done
exit 0
