import Foundation
import XCTest

/// `make bench-specs` runs these in the already built test binary with
/// SPECKIT_BENCH=1; otherwise both expand to no tests at all.
enum Bench {
    static let enabled = ProcessInfo.processInfo.environment["SPECKIT_BENCH"] == "1"
    static let count = Int(ProcessInfo.processInfo.environment["SPECKIT_BENCH_COUNT"] ?? "") ?? 10_000
}

/// One feature whose loop declares `Bench.count` scenarios of three steps each.
final class BenchScenariosFeature: FeatureSpec {
    override func testFeature() {
        guard Bench.enabled else { return }
        Feature("Benchmark") {
            var value = 0
            for index in 0..<Bench.count {
                Scenario("scenario \(index)") {
                    Given("the number \(index)") { value = index }
                    When("it is doubled") { value *= 2 }
                    Then("it is even") { expect(value % 2).to(equal(0)) }
                }
            }
        }
    }
}

/// The reference: plain XCTest with `Bench.count` dynamic entries (closures
/// handed to XCTMain exactly as SwiftPM hands it test methods), no SpecKit.
final class BenchPlainXCTestEntries: XCTestCase {
    func testAnchor() {}
}

/// More specific than XCTest's own `testCase`, for this class only.
func testCase<T: BenchPlainXCTestEntries>(_ declared: [(String, (T) -> () -> Void)]) -> XCTestCaseEntry {
    guard Bench.enabled else { return (T.self, []) }
    let tests: [(String, XCTestCaseClosure)] = (0..<Bench.count).map { index in
        (
            "test_\(index)",
            { _ in
                var value = index
                value *= 2
                XCTAssertTrue(value % 2 == 0)
            }
        )
    }
    return (T.self, tests)
}
