#!/bin/sh
# Issue 37: shows, on purpose, the race of the in-process heap counter that 9b4ee5b's
# allocation tests used (Tests/TouchlineTestSupport/HeapObjects.swift then, copied verbatim
# into counter-race.swift, with adapter-crash.sh's modes): one thread counts while WORKERS threads allocate, retain and
# release, as swift-testing's and Dispatch's threads did beside the probe. It prints the counts
# seen and after how many counts the runtime's swizzling switch was left on: the runtime's
# swift_allocObject turns the switch back on when another thread allocates between the
# counter's two stores (pointer restored after the switch is cleared), so from then on every
# retain and release of every thread goes through the function pointers the counter changes.
# Today's counter (Tests/AllocationProbe) runs in a process with one thread and cannot race.
#   scripts/issue37/counter-race.sh [ROUNDS] [WORKERS]
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
out=${TMPDIR:-/tmp}/touchline-counter-race
swiftc -Onone -g "$dir/counter-race.swift" -o "$out" 2>/dev/null
WORKERS=${2:-3} "$out" race "${1:-50000}"
