#!/usr/bin/env bash
# Rewrites the files tests compare against, after a deliberate change: the golden events beside
# each recording (Recordings/NAME.events.jsonl, NAME.events.txt), the generated parameter
# table of the DocC article (Sources/TouchlineGestures/TouchlineGestures.docc/RecognizerParameters.md),
# and the executable's reports, errors and help (Tests/TouchlineCLITests/Expected/, compared by
# the CLI tests: the whole TouchlineCLITests target runs, a few minutes).
#
#   scripts/update-goldens.sh        # then review `git diff` before committing
#
# No test rewrites what it expects (a test that did would pass whatever the code does): a test
# that finds a difference fails and leaves what it got under .build/actual/, at the file's path
# in the repository (TouchlineTestSupport's Expected.swift). This script runs those tests,
# copies what they left over the files, and runs them again, which must now pass. No test runs
# this script. (Recordings/*.yml themselves come from scripts/gen-recordings.py.)
set -euo pipefail
cd "$(dirname "$0")/.."

filter='GoldenTests|TextGoldenTests|ParameterDocTests|TouchlineCLITests'
rm -rf .build/actual
echo "== the tests that compare against files (failures are expected here)"
swift test --filter "$filter" 2>&1 | grep -E 'Test run with|recorded an issue' | tail -n 20 || true
if [ ! -d .build/actual ]; then
    echo "nothing differs: no file to update"
    exit 0
fi
echo "== copying what they got over the files"
(cd .build/actual && find . -type f | sed 's|^\./||' | sort) | while read -r file; do
    cp ".build/actual/$file" "$file"
    echo "updated $file"
done
rm -rf .build/actual
echo "== again: they must pass now"
swift test --filter "$filter" 2>&1 | tail -n 3
git --no-pager diff --stat
