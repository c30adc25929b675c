#!/usr/bin/env bash
# `make bench-specs` (second half): what a spec author waits for. The same generated suite of N
# scenarios (each builds a value, formats it and checks `equal`, `contain`, `beGreaterThan`;
# bench/generate-spec-suite.py) is written in SpecKit and in plain XCTest, each in its own scratch
# package outside the repo (SpecKit's depends on this checkout by path), then measured in the same
# run, alternating SpecKit and XCTest round after round so a busy machine slows both alike:
#   clean build     the test target and its bundle rebuilt from nothing (dependencies already built)
#   full clean      the whole scratch package from nothing, SpecKit included (first round only)
#   edit one        one scenario's title changed, then `swift build --build-tests`
#   edit one, LinuxMain.swift   (Linux) the same edit in the SpecKit package after it gained an
#                   explicit test list: SwiftPM then builds no test-discovery module, which it
#                   otherwise rewrites and recompiles after every edit (docs/specs.md)
#   type-check      `swiftc -typecheck` of one 20-scenario file: the sum of its function bodies
#                   (-debug-time-function-bodies) and the frontend's CPU; for SpecKit also the same
#                   file written with `Feature("…")` without a body (the speckit-flat dialect)
#   run             the built bundle running all N tests: CPU (user + sys)
# Medians, and SpecKit/XCTest ratios. Timings on a shared machine are noisy; CPU is steadier than wall.
#   SPEC_BUILD_BENCH_COUNT=200 RUNS=3 bench/spec-build-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$(pwd)"
N="${SPEC_BUILD_BENCH_COUNT:-200}"
RUNS="${RUNS:-3}"
PER_FILE=20
SWIFT="${SWIFT:-swift}"
SWIFTC="${SWIFTC:-swiftc}"
PIN=()
if command -v taskset >/dev/null 2>&1 && [ "${BENCH_PIN:-1}" != 0 ]; then PIN=(taskset -c 0,1); fi
SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/spec-build-bench.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT
RESULTS="bench-results/spec-build.txt"
mkdir -p bench-results
say() { printf '%s\n' "$*" >&2; }

# --- the two scratch packages ------------------------------------------------------------
make_package() { # DIALECT
    local dir="$SCRATCH/$1"
    mkdir -p "$dir/Sources/Empty" "$dir/Tests/GeneratedSpecs"
    echo "public let empty = 0" > "$dir/Sources/Empty/Empty.swift"
    if [ "$1" = speckit ]; then
        cat > "$dir/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "SpecBuildBench",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "Rehearsal", path: "$REPO")],
    targets: [
        .target(name: "Empty"),
        .testTarget(name: "GeneratedSpecs", dependencies: [.product(name: "SpecKit", package: "Rehearsal")]),
    ]
)
EOF
        echo "@_exported import SpecKit" > "$dir/Tests/GeneratedSpecs/SpecKitBootstrap.swift"
        # Type-checked only, outside the target: the first file again, written without Feature's body.
        python3 bench/generate-spec-suite.py speckit-flat "$dir/flat" "$PER_FILE" --per-file "$PER_FILE"
    else
        cat > "$dir/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "SpecBuildBench",
    targets: [.target(name: "Empty"), .testTarget(name: "GeneratedSpecs")]
)
EOF
    fi
    python3 bench/generate-spec-suite.py "$1" "$dir/Tests/GeneratedSpecs" "$N" --per-file "$PER_FILE"
}

# timed DIALECT LABEL COMMAND… : runs COMMAND in the dialect's package, appends "wall cpu" to LABEL.
timed() {
    local dialect="$1" label="$2"; shift 2
    local TIMEFORMAT='%R %U %S'
    local status=0
    { time (cd "$SCRATCH/$dialect" && "${PIN[@]}" "$@" > "$SCRATCH/out.txt" 2>&1) || status=$?; } 2> "$SCRATCH/time.txt"
    if [ "$status" != 0 ]; then say "$dialect: '$*' failed ($status):"; tail -20 "$SCRATCH/out.txt" >&2; exit 1; fi
    awk '{ printf "%s %.3f\n", $1, $2 + $3 }' "$SCRATCH/time.txt" >> "$SCRATCH/$dialect.$label"
}


clean_test_target() { # only the generated test target and its bundle
    find "$SCRATCH/$1/.build" -maxdepth 3 \( -name 'GeneratedSpecs.build' -o -name 'SpecBuildBench*Tests*' \) -prune -exec rm -rf {} +
    # And the build plan, so SwiftPM plans again and rewrites the output file maps it keeps in
    # those folders (otherwise: "unable to load output file map" once the plan is reused).
    rm -f "$SCRATCH/$1/.build/debug.yaml"
}

typecheck() { # DIALECT [FILE LABEL]: appends "function-bodies-ms frontend-cpu-s" to DIALECT.LABEL
    local dir="$SCRATCH/$1" modules
    local file="${2:-$dir/Tests/GeneratedSpecs/Generated0.swift}" label="${3:-typecheck}"
    modules="$(cd "$dir" && "$SWIFT" build --show-bin-path)/Modules"
    local TIMEFORMAT='%U %S'
    { time "${PIN[@]}" "$SWIFTC" -typecheck -swift-version 6 -I "$modules" "$file" \
        -Xfrontend -debug-time-function-bodies > "$SCRATCH/tc.txt" 2>&1; } 2> "$SCRATCH/tctime.txt"
    local bodies
    bodies="$(awk -F'ms' '/ms\t/ { s += $1 } END { printf "%.1f", s }' "$SCRATCH/tc.txt")"
    echo "$bodies $(awk '{ printf "%.3f", $1 + $2 }' "$SCRATCH/tctime.txt")" >> "$SCRATCH/$1.$label"
}

run_suite() { # DIALECT: appends "wall cpu" of the bundle running all N tests
    local dir="$SCRATCH/$1" bundle
    bundle="$(cd "$dir" && "$SWIFT" build --show-bin-path)/SpecBuildBenchPackageTests.xctest"
    local TIMEFORMAT='%R %U %S'
    { time "${PIN[@]}" "$bundle" > "$SCRATCH/run.txt" 2>&1 || true; } 2> "$SCRATCH/runtime.txt"
    grep -q "Executed $N tests, with 0 failures" "$SCRATCH/run.txt" || { say "$1: the suite did not pass $N tests:"; tail -5 "$SCRATCH/run.txt" >&2; exit 1; }
    awk '{ printf "%s %.3f\n", $1, $2 + $3 }' "$SCRATCH/runtime.txt" >> "$SCRATCH/$1.run"
}

median() { # FILE COLUMN
    sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { if (NR % 2) printf "%.3f", v[(NR + 1) / 2]; else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

say "spec build benchmark: N=$N scenarios ($PER_FILE a file), $RUNS alternating rounds; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
DIALECTS=(speckit xctest)
for dialect in "${DIALECTS[@]}"; do make_package "$dialect"; done
for dialect in "${DIALECTS[@]}"; do
    say "  full clean build: $dialect"
    timed "$dialect" fullclean "$SWIFT" build --build-tests
done
for ((round = 1; round <= RUNS; round++)); do
    for dialect in "${DIALECTS[@]}"; do
        say "  round $round/$RUNS: $dialect"
        clean_test_target "$dialect"
        timed "$dialect" clean "$SWIFT" build --build-tests
        # A different scenario each round, all in the first file, so every round is a real edit of
        # one file (the previous round's edit is undone in the same file).
        python3 bench/generate-spec-suite.py "$dialect" "$SCRATCH/$dialect/Tests/GeneratedSpecs" "$N" --per-file "$PER_FILE" --edit $((round * 7 % PER_FILE))
        timed "$dialect" edit "$SWIFT" build --build-tests
        typecheck "$dialect"
        if [ "$dialect" = speckit ]; then typecheck speckit "$SCRATCH/speckit/flat/Generated0.swift" typecheck-flat; fi
        run_suite "$dialect"
    done
done

# The SpecKit package again with an explicit test list (Tests/LinuxMain.swift), alternating with
# the same edit in plain XCTest: what the test-discovery module costs an edit.
LINUX_MAIN=0
if [ "$(uname -s)" = Linux ]; then
    LINUX_MAIN=1
    python3 bench/generate-spec-suite.py speckit "$SCRATCH/speckit/Tests/GeneratedSpecs" "$N" --per-file "$PER_FILE" \
        --linux-main "$SCRATCH/speckit/Tests/LinuxMain.swift"
    say "  build with Tests/LinuxMain.swift: speckit"
    timed speckit linuxmain-first "$SWIFT" build --build-tests
    for ((round = 1; round <= RUNS; round++)); do
        for dialect in "${DIALECTS[@]}"; do
            say "  LinuxMain round $round/$RUNS: $dialect"
            python3 bench/generate-spec-suite.py "$dialect" "$SCRATCH/$dialect/Tests/GeneratedSpecs" "$N" --per-file "$PER_FILE" --edit $(((round * 7 + 3) % PER_FILE))
            timed "$dialect" edit-again "$SWIFT" build --build-tests
        done
    done
fi

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  N=$N ($PER_FILE scenarios a file)  rounds=$RUNS  debug builds  load after: $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '%-44s %12s %12s %9s\n' "median of $RUNS (full clean: 1)" "SpecKit" "XCTest" "ratio"
    row() { # LABEL FILE-SUFFIX COLUMN UNIT [SPECKIT-FILE-SUFFIX]
        local a b
        a="$(median "$SCRATCH/speckit.${5:-$2}" "$3")"; b="$(median "$SCRATCH/xctest.$2" "$3")"
        printf '%-44s %12s %12s %9s\n' "$1" "$a $4" "$b $4" "$(ratio "$a" "$b")x"
    }
    row "full clean build, wall (SpecKit built too)" fullclean 1 s
    row "full clean build, CPU" fullclean 2 s
    row "clean build of the test target, wall" clean 1 s
    row "clean build of the test target, CPU" clean 2 s
    row "edit one scenario, rebuild wall" edit 1 s
    row "edit one scenario, rebuild CPU" edit 2 s
    if [ "$LINUX_MAIN" = 1 ]; then
        row "edit one, SpecKit with LinuxMain.swift: wall" edit-again 1 s
        row "edit one, SpecKit with LinuxMain.swift: CPU" edit-again 2 s
    fi
    row "type-check one file: function bodies" typecheck 1 ms
    row "type-check one file: frontend CPU" typecheck 2 s
    row "  the same, Feature without body: bodies" typecheck 1 ms typecheck-flat
    row "  the same, Feature without body: CPU" typecheck 2 s typecheck-flat
    row "run all $N: wall" run 1 s
    row "run all $N: CPU" run 2 s
    echo "(a shared or busy machine makes every figure noisy; compare ratios taken in one run)"
} | tee "$RESULTS"
say "(results also in $RESULTS)"
