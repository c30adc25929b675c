import TextSnapshot
import XCTest

final class RecordPolicyTests: XCTestCase {
    func resolve(call: RecordMode? = nil, scope: RecordMode? = nil, _ environment: [String: String]) throws -> RecordPolicy {
        try RecordPolicy.resolve(call: call, scope: scope, environment: environment)
    }

    func testDefaultIsMissingLocallyAndNeverOnCI() throws {
        XCTAssertEqual(try resolve([:]).mode, .missing)
        XCTAssertEqual(try resolve(["CI": "true"]).mode, .never)
        XCTAssertEqual(try resolve(["CI": "1"]).mode, .never)
        XCTAssertEqual(try resolve(["JENKINS_URL": "http://ci"]).mode, .never)
        XCTAssertEqual(try resolve(["CI": "false"]).mode, .missing)
        XCTAssertEqual(try resolve(["CI": ""]).mode, .missing)
    }

    func testPrecedenceIsCallThenScopeThenEnvironment() throws {
        let env = ["TEXT_SNAPSHOT_RECORD": "failed"]
        XCTAssertEqual(try resolve(call: .all, scope: .never, env).mode, .all)
        XCTAssertEqual(try resolve(scope: .never, env).mode, .never)
        XCTAssertEqual(try resolve(env).mode, .failed)
        XCTAssertEqual(try resolve(env).source, "TEXT_SNAPSHOT_RECORD")
        XCTAssertEqual(try resolve(["SNAPSHOT_TESTING_RECORD": "all"]).mode, .all)
    }

    func testRecordRequestedInCodeIsRefusedOnCI() throws {
        let policy = try resolve(call: .all, ["CI": "true"])
        XCTAssertEqual(policy.mode, .never)
        XCTAssertEqual(
            policy.refusal,
            "record mode .all was requested by record: argument but CI is set; refusing to write references (set TEXT_SNAPSHOT_ALLOW_RECORD_ON_CI=1 for a recording job)"
        )
        XCTAssertNotNil(try resolve(scope: .missing, ["CI": "true"]).refusal)
        XCTAssertNotNil(try resolve(["CI": "true", "TEXT_SNAPSHOT_RECORD": "all"]).refusal)
        XCTAssertNil(try resolve(call: .never, ["CI": "true"]).refusal)
    }

    func testRecordingOnCIIsAllowedWithTheOptIn() throws {
        let policy = try resolve(call: .all, ["CI": "true", "TEXT_SNAPSHOT_ALLOW_RECORD_ON_CI": "1"])
        XCTAssertEqual(policy.mode, .all)
        XCTAssertNil(policy.refusal)
    }

    func testCIIsSeenThroughXcodebuildPrefixesAndProviderVariables() throws {
        for environment in [
            ["TEST_RUNNER_CI": "true"], ["SIMCTL_CHILD_CI": "1"], ["GITHUB_ACTIONS": "true"],
            ["TEST_RUNNER_CI_XCODE_CLOUD": "TRUE"], ["JENKINS_URL": "http://ci"],
        ] {
            let policy = try RecordPolicy.resolve(call: nil, scope: nil, environment: environment)
            XCTAssertEqual(policy.mode, .never, "\(environment)")
            XCTAssertTrue(policy.isCI, "\(environment)")
        }
        XCTAssertFalse(try RecordPolicy.resolve(call: nil, scope: nil, environment: ["CI": "false", "GITHUB_ACTIONS": "true"]).isCI)
    }

    func testUnknownRecordModeIsAClearError() {
        XCTAssertThrowsError(try resolve(["TEXT_SNAPSHOT_RECORD": "sometimes"])) { error in
            XCTAssertEqual(
                (error as? SnapshotFailure)?.message,
                "TEXT_SNAPSHOT_RECORD=sometimes is not a record mode; use one of never, missing, failed, all")
        }
    }
}
