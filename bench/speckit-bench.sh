#!/usr/bin/env bash
# SpecKit's overhead: one process collects and runs a feature whose loop declares
# N scenarios of three steps each, against plain XCTest running N dynamic entries
# in the same binary, same machine, same run. Prints medians and ratios.
#   make bench-specs                       # N=10000, 3 runs each
#   SPECKIT_BENCH_COUNT=2000 RUNS=5 make bench-specs
set -euo pipefail
cd "$(dirname "$0")/.."

N="${SPECKIT_BENCH_COUNT:-10000}"
RUNS="${RUNS:-3}"
BIN=".build/debug/RehearsalPackageTests.xctest"
[ -x "$BIN" ] || { echo "error: $BIN not built; run 'swift build --build-tests' first" >&2; exit 1; }
SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/speckit-bench.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT
RESULTS="bench-results/speckit.txt"
mkdir -p bench-results

now() { date +%s.%N; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# run LABEL SELECTOR [ENV...]: prints the median wall time of RUNS runs.
run() {
    local label="$1" selector="$2"; shift 2
    local times=()
    for ((i = 1; i <= RUNS; i++)); do
        rm -rf "$SCRATCH/report"
        local start end
        start=$(now)
        env SPECKIT_BENCH=1 SPECKIT_BENCH_COUNT="$N" BDD_REPORT_DIR="$SCRATCH/report" "$@" \
            "$BIN" "$selector" > "$SCRATCH/out.txt" 2>&1 || true
        end=$(now)
        if ! grep -q "Executed $N tests, with 0 failures" "$SCRATCH/out.txt"; then
            echo "error: $label did not run $N passing tests:" >&2
            tail -5 "$SCRATCH/out.txt" >&2
            exit 1
        fi
        times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", b - a }')")
    done
    printf '%s\n' "${times[@]}" | sort -n | awk -v r="$RUNS" 'NR == int((r + 1) / 2) { printf "%.3f", $1 }'
}

echo "SpecKit benchmark: $N scenarios x 3 steps vs $N plain XCTest entries; median of $RUNS runs each"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
plain=$(run "plain XCTest" "SpecKitTests.BenchPlainXCTestEntries")
specs=$(run "SpecKit, report on" "SpecKitTests.BenchScenariosFeature")
doc_lines=$(wc -l < "$SCRATCH/report/LIVING-DOC.md")
noreport=$(run "SpecKit, report off" "SpecKitTests.BenchScenariosFeature" BDD_REPORT_DIR=off)

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  N=$N  runs=$RUNS  (debug build, output to a file)"
    printf '%-44s %8s s\n' "plain XCTest, $N dynamic entries" "$plain"
    printf '%-44s %8s s   (%sx plain)\n' "SpecKit, $N scenarios, report on" "$specs" "$(ratio "$specs" "$plain")"
    printf '%-44s %8s s   (%sx plain)\n' "SpecKit, $N scenarios, BDD_REPORT_DIR=off" "$noreport" "$(ratio "$noreport" "$plain")"
    echo "(report on: LIVING-DOC.md of $doc_lines lines and junit.xml merged at the end of the run)"
} | tee "$RESULTS"
echo "(results also in $RESULTS)"
