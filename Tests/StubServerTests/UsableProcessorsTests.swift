import XCTest

@testable import HTTPEngine
@testable import StubServer

/// Counting the CPUs the process may use: the cgroup v2 files are parsed, not trusted blindly.
final class UsableProcessorsTests: XCTestCase {
    func testCPUMaxQuotaRoundsUp() {
        XCTAssertEqual(UsableProcessors.cpus(fromCPUMax: "100000 100000\n"), 1)
        XCTAssertEqual(UsableProcessors.cpus(fromCPUMax: "150000 100000\n"), 2, "1.5 CPUs of time need 2 loops")
        XCTAssertEqual(UsableProcessors.cpus(fromCPUMax: "50000 100000"), 1, "never below one")
        XCTAssertEqual(UsableProcessors.cpus(fromCPUMax: "400000 100000"), 4)
    }

    func testCPUMaxWithoutALimitOrMalformedIsNoLimit() {
        XCTAssertNil(UsableProcessors.cpus(fromCPUMax: "max 100000\n"))
        XCTAssertNil(UsableProcessors.cpus(fromCPUMax: ""))
        XCTAssertNil(UsableProcessors.cpus(fromCPUMax: "abc"))
        XCTAssertNil(UsableProcessors.cpus(fromCPUMax: "0 100000"))
        XCTAssertNil(UsableProcessors.cpus(fromCPUMax: "100000 0"))
    }

    func testTheUnifiedHierarchyLineOfProcSelfCgroup() {
        XCTAssertEqual(UsableProcessors.cgroupPath(fromProcCgroup: "0::/user.slice/session-1.scope\n"), "/user.slice/session-1.scope")
        XCTAssertEqual(UsableProcessors.cgroupPath(fromProcCgroup: "4:memory:/x\n1:cpu:/\n0::/\n"), "/")
        XCTAssertNil(UsableProcessors.cgroupPath(fromProcCgroup: "4:memory:/x\n1:cpu:/\n"), "cgroup v1 only")
    }

    func testTheCountIsAtLeastOneAndAtMostTheMachine() {
        XCTAssertGreaterThanOrEqual(UsableProcessors.count, 1)
        XCTAssertLessThanOrEqual(UsableProcessors.count, ProcessInfo.processInfo.activeProcessorCount)
    }
}
