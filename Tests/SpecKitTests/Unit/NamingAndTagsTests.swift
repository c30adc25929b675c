import XCTest

@testable import SpecKit

/// Naming and tag rules, on SpecKit's internal helpers (the fixture run checks
/// the same names end to end through `--list-tests`).
final class NamingAndTagsTests: XCTestCase {
    func testSanitizeReplacesWhatRunnersCannotSelect() {
        XCTAssertEqual(TestNaming.sanitize("login, with a/b: v1.2\n  ok "), "login; with a-b- v1·2 ok")
        XCTAssertEqual(TestNaming.sanitize("ünïcode ✓ (fine)"), "ünïcode ✓ (fine)")
    }

    func testComposeKeepsTagsAndStaysUnderTheLimit() {
        let long = String(repeating: "word ", count: 40)
        let name = TestNaming.compose(base: long, counter: nil, tags: "@smoke @login")
        XCTAssertLessThanOrEqual(name.count, TestNaming.maxLength)
        XCTAssertTrue(name.hasSuffix("… @smoke @login"), name)
        let counted = TestNaming.compose(base: long, counter: 3, tags: "@smoke")
        XCTAssertTrue(counted.hasSuffix("… (3) @smoke"), counted)
        let manyTags = TestNaming.compose(base: "short", counter: 2, tags: String(repeating: "@tag ", count: 30))
        XCTAssertLessThanOrEqual(manyTags.count, TestNaming.maxLength)
        XCTAssertTrue(manyTags.hasSuffix("… (2)"), manyTags)
    }

    func testTagsNormalise() {
        XCTAssertEqual(Tags.normalize(["@smoke", " login ", "two words", "", "@", "smoke"]), ["smoke", "login", "two-words"])
    }

    func testTagFilter() {
        let filter = TagFilter(parsing: "smoke, @login ,~slow,!flaky")
        XCTAssertEqual(filter.required, ["smoke", "login"])
        XCTAssertEqual(filter.excluded, ["slow", "flaky"])
        XCTAssertTrue(filter.accepts(["smoke"]))
        XCTAssertTrue(filter.accepts(["login", "fast"]))
        XCTAssertFalse(filter.accepts(["smoke", "slow"]))
        XCTAssertFalse(filter.accepts(["other"]))
        XCTAssertFalse(filter.accepts([]))
        XCTAssertEqual(filter.summary, "login,smoke,~flaky,~slow")

        let onlyExclusions = TagFilter(parsing: "~slow")
        XCTAssertTrue(onlyExclusions.accepts([]))
        XCTAssertFalse(onlyExclusions.accepts(["slow"]))
        XCTAssertTrue(TagFilter(parsing: " , ").isEmpty)
    }

    func testOutlineTitlesFillFromTuplesStructsAndDictionaries() {
        struct Row { var email: String; var valid: Bool }
        XCTAssertEqual(
            OutlineTitle.fill("<email> is <valid>", with: OutlineTitle.fields(of: Row(email: "a@b.co", valid: true))).text,
            "a@b.co is true")
        XCTAssertEqual(
            OutlineTitle.fill("<a> and <b>", with: OutlineTitle.fields(of: ["b": 2, "a": 1] as [String: Any])).text, "1 and 2")
        XCTAssertEqual(OutlineTitle.fill("<0> then <1>", with: OutlineTitle.fields(of: (3, "x"))).text, "3 then x")
        XCTAssertEqual(OutlineTitle.fill("<n> and <gone>", with: OutlineTitle.fields(of: (n: Int?.none, m: 1))).missing, ["gone"])
        XCTAssertEqual(OutlineTitle.fill("<n>", with: OutlineTitle.fields(of: (n: Int?.none, m: 1))).text, "nil")
        XCTAssertEqual(OutlineTitle.placeholders(in: "a <x> b <y> <> <z"), ["x", "y"])
    }
}
