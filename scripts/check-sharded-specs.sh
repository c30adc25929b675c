#!/usr/bin/env bash
# Issue 24's done-when check for sharding: the sample's specs (the Specs target) run whole, then as
# four shards (BDD_SHARD=1/4 … 4/4, four `swift test` processes, each with its own report folder as
# four CI machines would have), and `speckit merge` of the four (LIVING-DOC.md, junit.xml, report.html) equals the whole run: the same
# scenarios with the same statuses, the same counts in LIVING-DOC.md and junit.xml. Then the merge's
# refusals: a missing shard, a shard given twice, and shards of different runs.
# Run by `make test` after the build; `make check-sharding` runs it alone. Needs a built tree.
set -euo pipefail
SWIFT=${SWIFT:-swift}
bin=$($SWIFT build --show-bin-path)
speckit="$bin/speckit"
[[ -x "$speckit" ]] || { echo "check-sharded-specs: $speckit is missing: run \`swift build --build-tests\` first" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/speckit-shards.XXXXXX")
trap 'rm -rf "$work"' EXIT
run_id="sharding-check-$$"

run_specs() { # <report dir> [BDD_SHARD]
    local dir=$1 shard=${2:-}
    # Filtered to the Specs target; the sample's own settings otherwise (CI, snapshots verify only).
    if ! env -u BDD_TAGS -u BDD_SCENARIO BDD_RUN_ID="$run_id" BDD_REPORT_DIR="$dir" ${shard:+BDD_SHARD=$shard} \
        "$SWIFT" test --skip-build --filter '^Specs\.' >"$dir.log" 2>&1; then
        echo "check-sharded-specs: the Specs run${shard:+ (BDD_SHARD=$shard)} failed; its output:" >&2
        tail -40 "$dir.log" >&2
        exit 1
    fi
}

started=$(date +%s)
run_specs "$work/whole"
# One after another: SwiftPM lets one `swift test` at a time use a .build folder.
for i in 1 2 3 4; do run_specs "$work/shard-$i" "$i/4"; done
"$speckit" merge "$work/shard-1" "$work/shard-2" "$work/shard-3" "$work/shard-4" -o "$work/merged" >"$work/merge.log"

python3 - "$work" <<'PY'
import json, re, sys
work = sys.argv[1]
def scenarios(folder):
    with open(f"{work}/{folder}/scenarios.jsonl", encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    return {r["specClass"] + "/" + r["testName"]: r for r in records}
whole, merged = scenarios("whole"), scenarios("merged")
problems = []
if set(whole) != set(merged):
    problems.append(f"scenario sets differ: only unsharded {sorted(set(whole) - set(merged))[:10]}, "
                    f"only merged {sorted(set(merged) - set(whole))[:10]}")
for key in sorted(set(whole) & set(merged)):
    if whole[key]["status"] != merged[key]["status"]:
        problems.append(f"{key}: {whole[key]['status']} unsharded, {merged[key]['status']} merged")
sizes = []
for i in range(1, 5):
    shard = scenarios(f"shard-{i}")
    sizes.append(len(shard))
    tags = {r.get("shard") for r in shard.values()}
    if tags != {f"{i}/4"}:
        problems.append(f"shard {i}'s fragments are tagged {tags}, expected {{'{i}/4'}}")
if sum(sizes) != len(whole):
    problems.append(f"the shards ran {sizes} = {sum(sizes)} scenarios, the whole run {len(whole)}")
def counts(folder):
    doc = open(f"{work}/{folder}/LIVING-DOC.md", encoding="utf-8").read()
    summary = re.search(r"· (\d+ scenarios?: [^_]*?)(?: · merged from \d+ shards?)?_", doc).group(1)
    junit = open(f"{work}/{folder}/junit.xml", encoding="utf-8").read()
    suites = re.search(r'<testsuites name="SpecKit" (tests="\d+" failures="\d+" errors="\d+" skipped="\d+")', junit).group(1)
    return summary, suites, junit.count("<testcase ")
import os
if not os.path.getsize(f"{work}/merged/report.html"):
    problems.append("the merge wrote no report.html")
def snapshots(records):
    return sorted((key, s["path"], s["outcome"]) for key, r in records.items() for s in (r.get("snapshots") or []))
if snapshots(whole) != snapshots(merged):
    problems.append(f"the snapshot gallery differs: {len(snapshots(whole))} snapshots unsharded, {len(snapshots(merged))} merged")
if counts("whole") != counts("merged"):
    problems.append(f"counts differ: unsharded {counts('whole')}, merged {counts('merged')}")
if problems:
    print("check-sharded-specs: FAILED: four shards merged differ from the unsharded run:", file=sys.stderr)
    for p in problems[:30]:
        print("  " + p, file=sys.stderr)
    sys.exit(1)
print(f"check-sharded-specs: 4 shards ran {sizes} scenarios; merged = unsharded: {len(whole)} scenarios, "
      f"{len(snapshots(whole))} snapshots, {counts('whole')[0]}")
PY

expect_refusal() { # <description> <expected message fragment> <speckit merge arguments…>
    local what=$1 expected=$2
    shift 2
    set +e
    "$speckit" merge "$@" -o "$work/refused" >"$work/refusal.log" 2>&1
    local status=$?
    set -e
    if [[ $status -ne 1 ]] || ! grep -qF -- "$expected" "$work/refusal.log"; then
        echo "check-sharded-specs: speckit merge of $what: expected exit 1 and \"$expected\", got exit $status:" >&2
        cat "$work/refusal.log" >&2
        exit 1
    fi
}
expect_refusal "shards 1, 2, 4 of 4" "shard 3 of 4 is missing (found shards 1, 2, 4 of 4)" \
    "$work/shard-1" "$work/shard-2" "$work/shard-4"
expect_refusal "shard 2 twice" "appear twice" "$work/shard-1" "$work/shard-2" "$work/shard-2" "$work/shard-3" "$work/shard-4"
sed 's/"runID":"[^"]*"/"runID":"another-run"/' "$work/shard-4/scenarios.jsonl" >"$work/other-run.jsonl"
expect_refusal "shards of two runs" "different runs" "$work/shard-1" "$work/shard-2" "$work/shard-3" "$work/other-run.jsonl"
# Usage errors exit 64, help exits 0.
"$speckit" --help >/dev/null && "$speckit" merge --help | grep -q "Usage:" || { echo "check-sharded-specs: speckit --help failed" >&2; exit 1; }
for usage in "merge $work/shard-1" "merge -o $work/refused" "merge --bogus" "frobnicate" ""; do
    set +e
    # shellcheck disable=SC2086 # word splitting wanted: the arguments of one case
    "$speckit" $usage >"$work/usage.log" 2>&1
    status=$?
    set -e
    if [[ $status -ne 64 ]] || ! grep -q "speckit: error: " "$work/usage.log"; then
        echo "check-sharded-specs: 'speckit $usage' should be a usage error (exit 64), got exit $status:" >&2
        cat "$work/usage.log" >&2
        exit 1
    fi
done
echo "check-sharded-specs: speckit merge refuses a missing shard, a duplicate shard and mixed runs (exit 1) and bad usage (exit 64); $(( $(date +%s) - started )) s"
