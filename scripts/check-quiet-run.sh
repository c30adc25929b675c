#!/usr/bin/env bash
# A green run should look green. Reads the log of a `make test` run (a file, or standard input)
# and fails when it holds
#   - a compiler warning or error about one of our own files (Sources/, Tests/, Specs/,
#     Examples/, bench/, Package.swift): never allowed, whatever the allow-list says;
#   - any other line containing "error" or "warning" (any case) that is neither a test runner's
#     line about a passing test nor matched by scripts/quiet-run-allowlist.txt (lines a test
#     prints on purpose, each with the test that prints it).
# It only reads the log: the tests' exit status is the caller's (.ci/run keeps it with pipefail).
#   make test 2>&1 | tee .build/make-test.log; bash scripts/check-quiet-run.sh .build/make-test.log
set -euo pipefail
cd "$(dirname "$0")/.."
log=${1:--}
allowlist=scripts/quiet-run-allowlist.txt

# Lines test runners and SwiftPM print on a green run that may contain the words in a name.
runner='^(Test Case '"'"'.*'"'"' (started|passed)|Test Suite '"'"'.*'"'"' (started|passed)|[[:space:]]*Executed [0-9]+ tests?, with (0 failures|[0-9]+ tests? skipped and 0 failures)|\[[0-9]+/[0-9]+\] (Compiling|Emitting|Linking|Write|Planning|Building|Applying|Wrapping)|Building for (debugging|production)|Compiling .*|Build complete!|Test Suite .* passed)'
swift_testing='^(◇|✔|􀟈|􁁛|↳|􀄵) (Test|Suite) '
own='(^|/)(Sources|Tests|Specs|Examples|bench)/[^:]*:[0-9]+(:[0-9]+)?: (warning|error):|Package\.swift:[0-9]+(:[0-9]+)?: (warning|error):'

patterns=()
if [[ -f $allowlist ]]; then
  while IFS= read -r line; do
    [[ -z $line || $line == \#* ]] && continue
    patterns+=("$line")
  done < "$allowlist"
fi

total=0; bad=0
report() { echo "check-quiet-run: line $1: $2"; bad=$((bad + 1)); }
while IFS= read -r line || [[ -n $line ]]; do
  total=$((total + 1))
  shopt -s nocasematch
  [[ $line =~ error|warning ]] || { shopt -u nocasematch; continue; }
  shopt -u nocasematch
  if [[ $line =~ $own ]]; then report "$total" "warning from our own sources: $line"; continue; fi
  [[ $line =~ $runner || $line =~ $swift_testing ]] && continue
  allowed=0
  for pattern in "${patterns[@]+"${patterns[@]}"}"; do
    if [[ $line =~ $pattern ]]; then allowed=1; break; fi
  done
  [[ $allowed == 1 ]] || report "$total" "$line"
done < <(if [[ $log == - ]]; then cat; else cat -- "$log"; fi)

if [[ $total -eq 0 ]]; then echo "check-quiet-run: the log is empty"; exit 1; fi
if [[ $bad -gt 0 ]]; then
  echo "check-quiet-run: $bad unexpected line(s) with 'error' or 'warning' in a run of $total lines."
  echo "  Fix the warning, make the test keep its intentional output to itself, or (for a line a test"
  echo "  prints on purpose) add a pattern with the test's name to $allowlist."
  exit 1
fi
echo "check-quiet-run: $total lines, no warning and no alarming line"
