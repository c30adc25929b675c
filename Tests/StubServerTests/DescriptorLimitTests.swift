import XCTest

@testable import StubServer

/// `stubserver start` raises its open-file limit; on macOS asking above `kern.maxfilesperproc`
/// fails with EINVAL and used to leave the server at 256 descriptors.
final class DescriptorLimitTests: XCTestCase {
    func testTargetNeverExceedsThePerProcessCap() {
        let unlimited = UInt64(Int64.max) // RLIM_INFINITY on Darwin
        XCTAssertEqual(DescriptorLimit.target(current: 256, hard: unlimited, perProcessCap: 10240), 10240)
        XCTAssertEqual(DescriptorLimit.target(current: 256, hard: unlimited, perProcessCap: 24576), 24576)
        XCTAssertEqual(DescriptorLimit.target(current: 256, hard: unlimited, perProcessCap: nil), DescriptorLimit.wanted)
        XCTAssertEqual(DescriptorLimit.target(current: 1024, hard: 4096, perProcessCap: nil), 4096)
        // Never lowers a limit that is already higher.
        XCTAssertEqual(DescriptorLimit.target(current: 100_000, hard: unlimited, perProcessCap: 10240), 100_000)
    }

    func testRaiseReportsTheLimitInForce() throws {
        let limit = try XCTUnwrap(DescriptorLimit.raise())
        XCTAssertGreaterThan(limit, 0)
        XCTAssertEqual(DescriptorLimit.raise(), limit, "a second raise changes nothing")
    }
}
