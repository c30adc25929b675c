#!/usr/bin/env python3
"""Writes the same generated suite in three dialects, for `make bench-specs` (and by hand).

Each scenario builds a value, formats it and checks `equal`, `contain` and `beGreaterThan`:
  speckit  Feature/Scenario with Given/When/Then steps (SpecKit)
  speckit-flat  the same with `Feature("…")` written without a body, each scenario a statement of
           `testFeature()` (SpecKit's spelling for long features: it type-checks scenario by scenario)
  xctest   one XCTestCase method per scenario, XCTAssert… (the CI-side reference)
  quick    QuickSpec `describe`/`it` with Nimble (by hand only: not a dependency of the project)
Files hold `--per-file` scenarios (default 20). Usage:
  generate-spec-suite.py DIALECT OUT_DIR N [--per-file 20] [--edit K]
`--edit K` changes the title of scenario K only (what the edit-one-scenario rebuild measures).
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dialect", choices=["speckit", "speckit-flat", "quick", "xctest"])
    parser.add_argument("out")
    parser.add_argument("count", type=int)
    parser.add_argument("--per-file", type=int, default=20)
    parser.add_argument("--edit", type=int, default=-1)
    args = parser.parse_args()
    make = {"speckit": speckit_file, "speckit-flat": speckit_flat_file, "quick": quick_file, "xctest": xctest_file}[args.dialect]
    os.makedirs(args.out, exist_ok=True)
    files = (args.count + args.per_file - 1) // args.per_file
    for index in range(files):
        first = index * args.per_file
        count = min(args.per_file, args.count - first)
        text = make(index, first, count, args.edit)
        path = os.path.join(args.out, f"Generated{index}.swift")
        # Rewrite only what changed, so an edit touches one file's timestamp (as an editor would).
        if not os.path.exists(path) or open(path).read() != text:
            with open(path, "w") as out:
                out.write(text)


if __name__ == "__main__":
    main()
