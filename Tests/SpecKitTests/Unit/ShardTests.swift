import Foundation
import RehearsalSettings
import XCTest

@testable import SpecKit

/// `BDD_SHARD=i/n`: which scenarios a shard runs, and `speckit merge`'s checks (SpecReporting).
final class ShardTests: XCTestCase {
    // MARK: Parsing

    func testAShardIsIOfN() throws {
        XCTAssertEqual(try Shard(parsing: "2/4", setting: "BDD_SHARD"), Shard(index: 2, count: 4))
        XCTAssertEqual(try Shard(parsing: " 1 / 1 ", setting: "BDD_SHARD"), Shard(index: 1, count: 1))
        XCTAssertEqual(Shard(index: 3, count: 8).description, "3/8")
    }

    func testAnInvalidShardNamesTheVariableAndWhatWasExpected() {
        let expected = "expected i/n, this process's shard i of n shards, whole numbers with 1 ≤ i ≤ n (e.g. BDD_SHARD=2/4)"
        for (text, problem) in [
            ("5/4", "BDD_SHARD=5/4: there is no shard 5 of 4; "),
            ("0/4", "BDD_SHARD=0/4: shards count from 1; "),
            ("1/0", "BDD_SHARD=1/0: there must be at least 1 shard; "),
            ("x", "BDD_SHARD=x is not a shard: "),
            ("1/4/2", "BDD_SHARD=1/4/2 is not a shard: "),
            ("-1/4", "BDD_SHARD=-1/4 is not a shard: "),
            ("1/", "BDD_SHARD=1/ is not a shard: "),
            ("٢/٤", "BDD_SHARD=٢/٤ is not a shard: "),
        ] {
            XCTAssertThrowsError(try Shard(parsing: text, setting: "BDD_SHARD"), text) { error in
                XCTAssertEqual("\(error)", problem + expected)
            }
        }
    }

    func testTheErrorNamesWhereTheSettingCameFrom() {
        let fromRunner = RehearsalSettings.Value(value: "9/2", source: "TEST_RUNNER_BDD_SHARD")
        XCTAssertThrowsError(try SpecSettings.parseShard(fromRunner)) { error in
            XCTAssertTrue("\(error)".hasPrefix("TEST_RUNNER_BDD_SHARD=9/2: there is no shard 9 of 2;"), "\(error)")
        }
        let fromFile = RehearsalSettings.Value(value: "two", source: "rehearsal.json (/p/rehearsal.json)")
        XCTAssertThrowsError(try SpecSettings.parseShard(fromFile)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\"shard\" in rehearsal.json (/p/rehearsal.json)=two is not a shard"), "\(error)")
        }
        XCTAssertNil(try SpecSettings.parseShard(nil))
        XCTAssertEqual(try SpecSettings.parseShard(.init(value: "1/3", source: "environment")), Shard(index: 1, count: 3))
    }

    func testTheShardSettingIsReadFromEveryPlace() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shard-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("// swift-tools-version:6.0\n".utf8).write(to: folder.appendingPathComponent("Package.swift"))
        try Data(#"{ "shard": "3/4" }"#.utf8).write(to: folder.appendingPathComponent("rehearsal.json"))
        let anchor = folder.appendingPathComponent("Spec.swift").path
        let file = RehearsalSettings(environment: [:], anchor: anchor, currentDirectory: "/")
        XCTAssertEqual(file.values["BDD_SHARD"]?.value, "3/4")
        let simulator = RehearsalSettings(environment: ["SIMCTL_CHILD_BDD_SHARD": "2/4"], anchor: anchor, currentDirectory: "/")
        XCTAssertEqual(simulator.values["BDD_SHARD"], .init(value: "2/4", source: "SIMCTL_CHILD_BDD_SHARD"))
        let runner = RehearsalSettings(environment: ["TEST_RUNNER_BDD_SHARD": "1/4"], anchor: anchor, currentDirectory: "/")
        XCTAssertEqual(runner.environment["BDD_SHARD"], "1/4")
    }

    // MARK: Assignment

    private func identities(_ count: Int, feature: String = "Specs.LoginSpec") -> [String] {
        (0..<count).map { "\(feature)/scenario number \($0)" }
    }

    func testEveryScenarioIsInExactlyOneShardAndEachFeatureIsSplitEvenly() {
        for count in [1, 2, 3, 4, 7] {
            for size in [0, 1, 3, 4, 10, 33] {
                let names = identities(size)
                let shards = Shard.assignments(of: names, group: "Specs.LoginSpec", count: count)
                XCTAssertEqual(shards.count, size)
                XCTAssertTrue(shards.allSatisfy { (1...count).contains($0) })
                let sizes = (1...count).map { shard in shards.filter { $0 == shard }.count }
                XCTAssertLessThanOrEqual((sizes.max() ?? 0) - (sizes.min() ?? 0), 1, "\(size) in \(count): \(sizes)")
                let picked = (1...count).flatMap { Shard(index: $0, count: count).select(names, group: "Specs.LoginSpec") { $0 } }
                XCTAssertEqual(picked.sorted(), names.sorted(), "the shards together are the whole feature")
            }
        }
    }

    func testTheAssignmentDependsOnlyOnTheNamesNotTheirOrder() {
        let names = identities(25)
        let forward = Dictionary(uniqueKeysWithValues: zip(names, Shard.assignments(of: names, group: "G", count: 4)))
        let reversed = Array(names.reversed())
        let backward = Dictionary(uniqueKeysWithValues: zip(reversed, Shard.assignments(of: reversed, group: "G", count: 4)))
        XCTAssertEqual(forward, backward)
    }

    /// Pinned values: FNV-1a is the same on every machine and in every process (Swift's `hashValue` is not).
    func testTheHashIsFNV1a() {
        XCTAssertEqual(Shard.fnv1a(""), 0xcbf2_9ce4_8422_2325)
        XCTAssertEqual(Shard.fnv1a("a"), 0xaf63_dc4c_8601_ec8c)
        XCTAssertEqual(Shard.fnv1a("foobar"), 0x8594_4171_f739_67e8)
        XCTAssertEqual(
            Shard.assignments(of: ["Specs.A/one", "Specs.A/two", "Specs.A/three"], group: "Specs.A", count: 2),
            Shard.assignments(of: ["Specs.A/one", "Specs.A/two", "Specs.A/three"], group: "Specs.A", count: 2))
    }

    func testRemaindersOfManySmallFeaturesSpreadOverTheShards() {
        // 40 features of 3 scenarios, 4 shards: a fixed start shard would give shard 4 nothing.
        var sizes = [0, 0, 0, 0]
        for feature in 0..<40 {
            let group = "Specs.Feature\(feature)"
            for shard in Shard.assignments(of: identities(3, feature: group), group: group, count: 4) { sizes[shard - 1] += 1 }
        }
        XCTAssertEqual(sizes.reduce(0, +), 120)
        XCTAssertLessThanOrEqual(sizes.max()! - sizes.min()!, 12, "\(sizes)")
    }

    // MARK: Merge

    private func report(_ title: String, spec: String = "Specs.LoginSpec", shard: String?, runID: String = "run-1")
        -> ScenarioReport
    {
        ScenarioReport(
            runID: runID, specClass: spec, feature: .init(kind: "Feature", title: "Login", narrative: nil, tags: []),
            featureIndex: 0, path: [], keyword: "Scenario", title: title, testName: title, tags: [], example: nil,
            ordinal: 0, status: .passed, reason: nil, duration: 0.01, steps: [], failures: [], file: "/Login.swift",
            line: 1, finishedAt: Date(timeIntervalSince1970: 0), shard: shard)
    }

    private func input(_ name: String, _ reports: [ScenarioReport]) -> ReportInput {
        ReportInput(source: name, reports: reports)
    }

    func testShardsOfOneRunMergeIntoOneReport() throws {
        let merged = try ShardMerge.merge(
            [
                input("s2", [report("b", shard: "2/2")]),
                input("s1", [report("a", shard: "1/2"), report("c", spec: "Specs.A", shard: "1/2")]),
            ],
            allowMixedRuns: false)
        XCTAssertEqual(merged.reports.map(\.title), ["c", "a", "b"], "spec classes alphabetically, as one run's report")
        XCTAssertEqual(merged.shardCount, 2)
        XCTAssertEqual(merged.runIDs, ["run-1"])
    }

    func testAMissingShardIsAnError() {
        let inputs = [1, 2, 4].map { input("shard-\($0)", [report("s\($0)", shard: "\($0)/4")]) }
        XCTAssertThrowsError(try ShardMerge.merge(inputs, allowMixedRuns: false)) { error in
            XCTAssertTrue("\(error)".hasPrefix("shard 3 of 4 is missing (found shards 1, 2, 4 of 4)"), "\(error)")
        }
    }

    func testAScenarioInTwoInputsIsAnError() {
        let inputs = [input("a", [report("same", shard: "1/2")]), input("b", [report("same", shard: "2/2")])]
        XCTAssertThrowsError(try ShardMerge.merge(inputs, allowMixedRuns: false)) { error in
            XCTAssertTrue("\(error)".contains("\"Specs.LoginSpec/same\" is in a (shard 1/2) and in b (shard 2/2)"), "\(error)")
        }
    }

    func testFragmentsOfDifferentRunsNeedAllowMixedRuns() throws {
        let inputs = [input("a", [report("one", shard: nil, runID: "r1")]), input("b", [report("two", shard: nil, runID: "r2")])]
        XCTAssertThrowsError(try ShardMerge.merge(inputs, allowMixedRuns: false)) { error in
            XCTAssertTrue("\(error)".hasPrefix("the fragments come from 2 different runs: r1 (1 scenarios, in a); r2"), "\(error)")
            XCTAssertTrue("\(error)".hasSuffix("or pass --allow-mixed-runs"), "\(error)")
        }
        XCTAssertEqual(try ShardMerge.merge(inputs, allowMixedRuns: true).runIDs, ["r1", "r2"])
    }

    func testShardedAndUnshardedOrDifferentlySplitFragmentsDoNotMix() {
        XCTAssertThrowsError(
            try ShardMerge.merge([input("a", [report("one", shard: nil), report("two", shard: "1/1")])], allowMixedRuns: false)
        ) { error in XCTAssertTrue("\(error)".hasPrefix("1 scenario comes from an unsharded run"), "\(error)") }
        XCTAssertThrowsError(
            try ShardMerge.merge([input("a", [report("one", shard: "1/2"), report("two", shard: "2/3")])], allowMixedRuns: false)
        ) { error in XCTAssertTrue("\(error)".hasPrefix("the fragments come from runs split different ways"), "\(error)") }
    }

    func testMergeWritesTheLivingDocumentJUnitAndScenarios() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shard-merge-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let merged = try ShardMerge.merge(
            [input("1", [report("a", shard: "1/2")]), input("2", [report("b", shard: "2/2")])], allowMixedRuns: false)
        let files = try ShardMerge.write(merged, to: folder, generatedAt: Date(timeIntervalSince1970: 0))
        XCTAssertEqual(files.map(\.lastPathComponent).prefix(3), ["scenarios.jsonl", "LIVING-DOC.md", "junit.xml"])
        let doc = try String(contentsOf: folder.appendingPathComponent("LIVING-DOC.md"), encoding: .utf8)
        XCTAssertTrue(doc.contains("2 scenarios: ✅ 2 passed · ❌ 0 failed · merged from 2 shards_"), doc)
        let oneShard = LivingDocRenderer.render(
            [report("a", shard: "1/2")], context: ReportContext(runID: "run-1", generatedAt: Date(), tagFilter: ""))
        XCTAssertTrue(oneShard.contains("1 scenario: ✅ 1 passed · ❌ 0 failed · shard 1/2_"), oneShard)
        let reread = try ReportInput.load(path: folder.path)
        XCTAssertEqual(reread.reports.map(\.shard), ["1/2", "2/2"])
        XCTAssertThrowsError(try ReportInput.load(path: folder.appendingPathComponent("nope").path)) { error in
            XCTAssertTrue("\(error)".hasSuffix("nope: no such file or folder"), "\(error)")
        }
    }
}
