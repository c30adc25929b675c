#!/usr/bin/env bash
# Builds and tests every Examples/* package as a separate package that depends on this
# repository (`.package(path: "../..")`), under XCTest and Swift Testing, then checks what a
# user relies on in Examples/WeatherApp: scenarios listed by title and one scenario runnable alone.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}

fail() { echo "error: $*" >&2; exit 1; }

for dir in Examples/*/; do
  echo "== $dir: swift build --build-tests && swift test"
  (cd "$dir" && "$SWIFT" build --build-tests)
  log=$(mktemp)
  status=0
  (cd "$dir" && "$SWIFT" test --skip-build) 2>&1 | tee "$log" || status=$?
  # XCTest and Swift Testing run as two processes: neither may call the other's snapshots unused.
  if grep -q "not touched by any test" "$log"; then rm -f "$log"; fail "$dir reports snapshot files as unused"; fi
  rm -f "$log"
  [[ $status -eq 0 ]] || fail "$dir: swift test failed"
done

cd Examples/WeatherApp
echo "== Examples/WeatherApp: listing and selecting single scenarios"
list=$("$SWIFT" test list --skip-build 2>/dev/null)
grep -qxF 'WeatherAppSpecs.ForecastSpec/A sunny city needs no umbrella @forecast' <<<"$list" \
  || fail "swift test list does not show the XCTest scenario by title:"$'\n'"$list"
grep -qxF 'WeatherAppSpecs.ForecastFeature/scenario(_:)' <<<"$list" \
  || fail "swift test list does not show the Swift Testing feature:"$'\n'"$list"

# XCTest: --filter picks one scenario by its title.
out=$("$SWIFT" test --skip-build --filter 'ForecastSpec/A sunny city' 2>&1)
grep -q "Executed 1 test, with 0 failures" <<<"$out" || fail "--filter did not run exactly one XCTest scenario:"$'\n'"$out"

# Swift Testing: --filter picks the feature, BDD_SCENARIO one of its scenarios (an outline row).
out=$(BDD_SCENARIO='^Lisbon is Sonnig' "$SWIFT" test --skip-build --filter 'WeatherAppSpecs\.ForecastFeature' 2>&1)
cases=$(grep -c 'Test case passing 1 argument scenario → ' <<<"$out" || true)
[[ "$cases" == 1 ]] && grep -qF '→ Lisbon is Sonnig @swift-testing' <<<"$out" \
  && grep -q 'Test run with 1 test in 1 suite passed' <<<"$out" \
  || fail "BDD_SCENARIO did not run exactly one Swift Testing scenario ($cases cases):"$'\n'"$out"
echo "examples: ok"
