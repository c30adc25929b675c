import Foundation
import XCTest

@testable import SpecKit

/// `BDD_SHARD=i/n` seen from outside: fixture features run whole and in two shards, in
/// subprocesses of this test binary, under XCTest and under Swift Testing.
final class ShardRunTests: XCTestCase {
    private func scenarios(of result: FixtureProcess.Result) throws -> [String: ScenarioReport] {
        let input = try ReportInput.load(path: result.reportDirectory.path)
        return Dictionary(uniqueKeysWithValues: input.reports.map { ($0.identity, $0) })
    }

    /// Runs `arguments` whole and as shards 1/2 and 2/2, and checks the shards split the whole exactly.
    private func checkTwoShards(_ arguments: [String], environment: [String: String] = [:]) throws {
        let whole = try scenarios(of: FixtureProcess.run(arguments, environment: environment))
        XCTAssertGreaterThan(whole.count, 3, "the fixture ran: \(whole.keys.sorted())")
        var union: [String: ScenarioReport] = [:]
        for index in 1...2 {
            let run = try FixtureProcess.run(arguments, environment: environment.merging(["BDD_SHARD": "\(index)/2"]) { $1 })
            let shard = try scenarios(of: run)
            XCTAssertFalse(shard.isEmpty, "shard \(index)/2 ran nothing:\n\(run.output)")
            XCTAssertEqual(Set(shard.values.compactMap(\.shard)), ["\(index)/2"], "fragments are tagged with their shard")
            for (identity, report) in shard {
                XCTAssertNil(union[identity], "\(identity) ran in both shards")
                union[identity] = report
                XCTAssertEqual(report.status, whole[identity]?.status, identity)
            }
            // The other shard's scenarios are not registered at all: never started, never reported as skipped.
            for identity in whole.keys where shard[identity] == nil {
                let name = whole[identity]!.testName
                XCTAssertFalse(run.output.contains("\(name)' started"), "\(name) ran in shard \(index):\n\(run.output)")
                XCTAssertFalse(run.output.contains("→ \(name)"), "\(name) ran in shard \(index):\n\(run.output)")
            }
        }
        XCTAssertEqual(Set(union.keys), Set(whole.keys), "the two shards together ran exactly the whole")
    }

    func testXCTestScenariosSplitIntoShards() throws {
        try checkTwoShards(["SpecKitTests.FixtureStructureFeature", "SpecKitTests.FixtureTagsFeature"])
    }

    func testSwiftTestingScenariosSplitIntoShards() throws {
        try checkTwoShards(
            ["--testing-library", "swift-testing", "--filter", "FixtureParityStructure"], environment: ["SPECKIT_ST_PARITY": "1"])
    }

    func testAnInvalidShardStopsTheRunNamingTheVariable() throws {
        let result = try FixtureProcess.run(["SpecKitTests.FixtureTagsFeature"], environment: ["TEST_RUNNER_BDD_SHARD": "5/4"])
        XCTAssertEqual(result.exitCode, 1, result.output)
        XCTAssertTrue(
            result.output.contains("SpecKit error: TEST_RUNNER_BDD_SHARD=5/4: there is no shard 5 of 4; expected i/n"),
            result.output)
        XCTAssertFalse(result.output.contains("' started"), "no test ran:\n\(result.output)")
    }
}
