#!/usr/bin/env bash
# SpecKit's overhead: one process collects and runs a feature whose loop declares
# N scenarios of three steps each, against plain XCTest running N dynamic entries
# in the same already-built binary. Variants run interleaved, round after round,
# so a busy machine slows all of them alike; medians of wall and CPU time.
#   make bench-specs                       # N=10000, 5 rounds
#   SPECKIT_BENCH_COUNT=2000 RUNS=3 bench/speckit-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."

N="${SPECKIT_BENCH_COUNT:-10000}"
RUNS="${RUNS:-5}"
BIN=".build/debug/RehearsalPackageTests.xctest"
[ -x "$BIN" ] || { echo "error: $BIN not built; run 'swift build --build-tests' first" >&2; exit 1; }
SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/speckit-bench.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT
RESULTS="bench-results/speckit.txt"
mkdir -p bench-results

VARIANTS=(plain on off)
declare -A LABEL=(
    [plain]="plain XCTest, $N dynamic entries"
    [on]="SpecKit, $N scenarios x 3 steps, report on"
    [off]="SpecKit, $N scenarios x 3 steps, report off"
)
declare -A SELECTOR=(
    [plain]="SpecKitTests.BenchPlainXCTestEntries"
    [on]="SpecKitTests.BenchScenariosFeature"
    [off]="SpecKitTests.BenchScenariosFeature"
)

# once VARIANT: runs it, appends "wall cpu" to $SCRATCH/VARIANT.times
once() {
    local variant="$1" report="$SCRATCH/report"
    [ "$variant" = off ] && report=off
    rm -rf "$SCRATCH/report"
    local TIMEFORMAT='%R %U %S'
    { time env SPECKIT_BENCH=1 SPECKIT_BENCH_COUNT="$N" BDD_REPORT_DIR="$report" \
        "$BIN" "${SELECTOR[$variant]}" > "$SCRATCH/out.txt" 2>&1 || true; } 2> "$SCRATCH/time.txt"
    if ! grep -q "Executed $N tests, with 0 failures" "$SCRATCH/out.txt"; then
        echo "error: ${LABEL[$variant]} did not run $N passing tests:" >&2
        tail -5 "$SCRATCH/out.txt" >&2
        exit 1
    fi
    awk '{ printf "%s %.3f\n", $1, $2 + $3 }' "$SCRATCH/time.txt" >> "$SCRATCH/$variant.times"
    if [ "$variant" = on ]; then wc -l < "$SCRATCH/report/LIVING-DOC.md" > "$SCRATCH/doc-lines"; fi
}

# median VARIANT COLUMN (1 = wall, 2 = cpu)
median() {
    sort -n -k"$2" "$SCRATCH/$1.times" | awk -v c="$2" -v r="$RUNS" 'NR == int((r + 1) / 2) { printf "%.2f", $c }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo "SpecKit benchmark: N=$N, $RUNS interleaved rounds; machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
for ((round = 1; round <= RUNS; round++)); do
    for variant in "${VARIANTS[@]}"; do once "$variant"; done
done

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  N=$N  rounds=$RUNS  debug build, output to a file, load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
    printf '%-48s %9s %9s %8s\n' "median of $RUNS" "wall s" "cpu s" "wall/plain"
    for variant in "${VARIANTS[@]}"; do
        printf '%-48s %9s %9s %8s\n' "${LABEL[$variant]}" "$(median "$variant" 1)" "$(median "$variant" 2)" \
            "$(ratio "$(median "$variant" 1)" "$(median plain 1)")"
    done
    echo "(report on: LIVING-DOC.md of $(cat "$SCRATCH/doc-lines") lines and junit.xml merged at the end of the run)"
} | tee "$RESULTS"
echo "(results also in $RESULTS)"
