#!/usr/bin/env bash
# App code must never link XCTest: an iOS app target cannot. This checks, without building, that
# the targets app code (or a UI-test helper) may link (DesignerNews, SpecKitAppSupport, TextScreen,
# StubServerClient and what it links; SpecReporting and the `speckit` command, XCTest-free by design) neither import XCTest
# nor import, or depend in Package.swift on, any target that does (SpecKit, TextSnapshot, …).
# Run by `make test`; `scripts/check-app-targets.sh [ROOT]` checks another checkout.
set -euo pipefail
root=${1:-.}
cd "$root"
app_targets=(DesignerNews SpecKitAppSupport TextScreen StubServerClient StubModel RehearsalJSON Locking StubVerification StubServer HTTPEngine SpecReporting SpeckitCLI)

# `import XCTest`, `@testable import SpecKit`, `import class XCTest.XCTestCase`, …
import_pattern() {
    local modules=$1
    echo "^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*import[[:space:]]+((class|struct|enum|protocol|func|var|let|typealias)[[:space:]]+)?($modules)([.[:space:]]|$)"
}

# The XCTest-facing targets: every target with a source file that imports XCTest.
xctest_targets=()
for dir in Sources/*/; do
    target=$(basename "$dir")
    if grep -rqE --include='*.swift' "$(import_pattern XCTest)" "$dir"; then xctest_targets+=("$target"); fi
done
forbidden=$(printf '%s|' XCTest "${xctest_targets[@]}")
forbidden=${forbidden%|}

status=0
for target in "${app_targets[@]}"; do
    if [[ ! -d Sources/$target ]]; then
        echo "check-app-targets: Sources/$target is missing" >&2
        status=1
        continue
    fi
    if hits=$(grep -rnE --include='*.swift' "$(import_pattern "$forbidden")" "Sources/$target"); then
        echo "check-app-targets: $target is linked by app code, so it must not import XCTest or a module that does ($forbidden):" >&2
        echo "$hits" | sed 's/^/  /' >&2
        status=1
    fi
done

# Package.swift: the dependency closure of every app target stays clear of XCTest-facing targets.
edges=$(swift package describe 2>/dev/null | awk '
    /^    Name: / { name = $2; deps = 0; next }
    /^    Target dependencies:/ { deps = 1; next }
    deps && /^        [^ ]/ { print name, $1; next }
    { deps = 0 }')
if ! grep -q '^DesignerNews ' <<<"$edges"; then
    echo "check-app-targets: could not read target dependencies from \`swift package describe\`" >&2
    exit 1
fi
for target in "${app_targets[@]}"; do
    seen=" $target "
    queue=("$target")
    while ((${#queue[@]})); do
        current=${queue[0]}
        queue=("${queue[@]:1}")
        for dep in $(awk -v t="$current" '$1 == t { print $2 }' <<<"$edges"); do
            [[ $seen == *" $dep "* ]] && continue
            seen+="$dep "
            queue+=("$dep")
            for bad in "${xctest_targets[@]}"; do
                if [[ $dep == "$bad" ]]; then
                    echo "check-app-targets: $target depends on $dep (via $current in Package.swift), which imports XCTest" >&2
                    status=1
                fi
            done
        done
    done
done

if ((status == 0)); then
    echo "check-app-targets: ${app_targets[*]} are free of XCTest (XCTest-facing: ${xctest_targets[*]})"
fi
exit $status
