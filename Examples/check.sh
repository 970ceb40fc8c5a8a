#!/usr/bin/env bash
# Builds each example package under Examples/ in its own .build (as an adopter's package would
# be built: against the repository by path, resolving it afresh), runs it, and compares what it
# prints with its expected-output.txt. A difference is shown and fails the script.
#   Examples/check.sh            # every example
#   Examples/check.sh --update   # rewrite expected-output.txt (review the diff)
set -euo pipefail
cd "$(dirname "$0")"
update=0
[ "${1:-}" = --update ] && update=1
status=0
for dir in */; do
    name=${dir%/}
    [ -f "$name/Package.swift" ] || continue
    start=$SECONDS
    if ! build_log=$(swift build --package-path "$name" 2>&1); then
        echo "$build_log" | tail -n 30 >&2
        echo "Examples/$name: build failed" >&2
        status=1
        continue
    fi
    actual=$(mktemp)
    "$(swift build --package-path "$name" --show-bin-path)/$name" >"$actual"
    if [ $update = 1 ]; then
        cp "$actual" "$name/expected-output.txt"
        echo "Examples/$name: expected-output.txt rewritten"
    elif diff -u "$name/expected-output.txt" "$actual"; then
        echo "Examples/$name: output as expected (build and run $((SECONDS - start)) s)"
    else
        echo "Examples/$name: output differs from expected-output.txt (above)" >&2
        status=1
    fi
    rm -f "$actual"
done
exit $status
