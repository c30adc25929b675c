#!/usr/bin/env bash
# The docs' complete snippets are real files: a fenced block right after a line
# `<!-- snippet: <path> -->` must equal that file byte for byte, so a spec written only from
# the docs is one CI compiles and runs (Examples/* are built by `make test`).
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
checked=0
for doc in README.md docs/*.md; do
  while IFS= read -r target; do
    expected=$(awk -v target="$target" '
      $0 == "<!-- snippet: " target " -->" { want = 1; next }
      want == 1 && /^```/ { inside = 1; want = 2; next }
      inside && /^```/ { exit }
      inside { print }
    ' "$doc")
    if [[ ! -f "$target" ]]; then
      echo "error: $doc names snippet file $target, which does not exist"; status=1; continue
    fi
    if ! diff -u --label "$target" --label "$doc (snippet)" "$target" <(printf '%s\n' "$expected"); then
      echo "error: the snippet in $doc differs from $target (update one to match the other)"; status=1
    fi
    checked=$((checked + 1))
  done < <(sed -n 's/^<!-- snippet: \(.*\) -->$/\1/p' "$doc")
done
if [[ $checked -eq 0 ]]; then echo "error: no <!-- snippet: … --> blocks found"; exit 1; fi
echo "doc snippets: $checked checked"
exit $status
