#!/usr/bin/env python3
"""Writes the same generated suite in three dialects, for `make bench-specs` (and by hand).

Each scenario builds a value, formats it and checks `equal`, `contain` and `beGreaterThan`:
  speckit  Feature/Scenario with Given/When/Then steps (SpecKit)
  speckit-flat  the same with `Feature("…")` written without a body, each scenario a statement of
           `testFeature()` (SpecKit's spelling for long features: it type-checks scenario by scenario)
  xctest   one XCTestCase method per scenario, XCTAssert… (the CI-side reference)
  quick    QuickSpec `describe`/`it` with Nimble (by hand only: not a dependency of the project)
Files hold `--per-file` scenarios (default 20). Usage:
  generate-spec-suite.py DIALECT OUT_DIR N [--per-file 20] [--edit K] [--linux-main PATH]
`--edit K` changes the title of scenario K only (what the edit-one-scenario rebuild measures).
`--linux-main Tests/LinuxMain.swift` (SpecKit dialects) also writes the test target's explicit
test list: with it SwiftPM builds no test-discovery module (docs/specs.md, "Rebuilding after an edit").
"""
import argparse
import os


def speckit_file(index, first, count, edit, flat=False):
    lines = ["import SpecKit", "", f"final class Generated{index}Feature: FeatureSpec {{",
             "    override func testFeature() {", f'        Feature("Generated {index}")' + ("" if flat else " {")]
    scenarios = []
    for n in range(first, first + count):
        title = f"scenario {n}" + (" (edited)" if n == edit else "")
        scenarios += [
            f'            Scenario("{title}") {{',
            "                var value = 0",
            '                var text = ""',
            f'                Given("a value of {n}") {{ value = {n * 7 + 3} }}',
            '                When("it is formatted") { text = "value \\(value)" }',
            '                Then("the text shows it") {',
            f'                    expect(text).to(equal("value {n * 7 + 3}"))',
            '                    expect(text).to(contain("value"))',
            f"                    expect(value).to(beGreaterThan({n}))",
            "                }",
            "            }",
        ]
    if flat:
        lines += [line[4:] for line in scenarios] + ["    }", "}", ""]
    else:
        lines += scenarios + ["        }", "    }", "}", ""]
    return "\n".join(lines)


def speckit_flat_file(index, first, count, edit):
    return speckit_file(index, first, count, edit, flat=True)


def quick_file(index, first, count, edit):
    lines = ["import Quick", "import Nimble", "", f"final class Generated{index}Spec: QuickSpec {{",
             "    override class func spec() {", f'        describe("Generated {index}") {{']
    for n in range(first, first + count):
        title = f"scenario {n}" + (" (edited)" if n == edit else "")
        lines += [
            f'            it("{title}") {{',
            f"                let value = {n * 7 + 3}",
            '                let text = "value \\(value)"',
            f'                expect(text).to(equal("value {n * 7 + 3}"))',
            '                expect(text).to(contain("value"))',
            f"                expect(value).to(beGreaterThan({n}))",
            "            }",
        ]
    lines += ["        }", "    }", "}", ""]
    return "\n".join(lines)


def xctest_file(index, first, count, edit):
    lines = ["import XCTest", "", f"final class Generated{index}Tests: XCTestCase {{"]
    for n in range(first, first + count):
        name = f"test_scenario_{n}" + ("_edited" if n == edit else "")
        lines += [
            f"    func {name}() {{",
            f"        let value = {n * 7 + 3}",
            '        let text = "value \\(value)"',
            f'        XCTAssertEqual(text, "value {n * 7 + 3}")',
            '        XCTAssertTrue(text.contains("value"))',
            f"        XCTAssertGreaterThan(value, {n})",
            "    }",
        ]
    lines += ["}", ""]
    return "\n".join(lines)


def speckit_linux_main(files):
    """The explicit Linux test list for the generated features, as docs/specs.md shows it."""
    lines = ["#if !canImport(ObjectiveC)", "import SpecKit", "import XCTest", "", "@testable import GeneratedSpecs", "",
             "@main struct SpecsMain {", "    static func main() {", "        XCTMain(["]
    lines += [f'            testCase([("testFeature", Generated{index}Feature.testFeature)]),' for index in range(files)]
    lines += ["        ])", "    }", "}", "#endif", ""]
    return "\n".join(lines)


def write_if_changed(path, text):
    # Rewrite only what changed, so an edit touches one file's timestamp (as an editor would).
    if not os.path.exists(path) or open(path).read() != text:
        with open(path, "w") as out:
            out.write(text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dialect", choices=["speckit", "speckit-flat", "quick", "xctest"])
    parser.add_argument("out")
    parser.add_argument("count", type=int)
    parser.add_argument("--per-file", type=int, default=20)
    parser.add_argument("--edit", type=int, default=-1)
    parser.add_argument("--linux-main")
    args = parser.parse_args()
    if args.linux_main and not args.dialect.startswith("speckit"):
        parser.error("--linux-main writes a SpecKit test list: use it with a speckit dialect")
    make = {"speckit": speckit_file, "speckit-flat": speckit_flat_file, "quick": quick_file, "xctest": xctest_file}[args.dialect]
    os.makedirs(args.out, exist_ok=True)
    files = (args.count + args.per_file - 1) // args.per_file
    for index in range(files):
        first = index * args.per_file
        count = min(args.per_file, args.count - first)
        text = make(index, first, count, args.edit)
        write_if_changed(os.path.join(args.out, f"Generated{index}.swift"), text)
    if args.linux_main:
        write_if_changed(args.linux_main, speckit_linux_main(files))


if __name__ == "__main__":
    main()
