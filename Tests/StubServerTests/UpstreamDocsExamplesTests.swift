import Foundation
import XCTest

@testable import StubServer

/// Every configuration example in docs/stub-config.md's "Proxy, record/replay and events"
/// section loads (so the page never shows a config that stubserver rejects).
final class UpstreamDocsExamplesTests: XCTestCase {
    func testEveryExampleInTheSectionLoads() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/stub-config.md")
        let page = try String(contentsOf: docs, encoding: .utf8)
        let start = try XCTUnwrap(page.range(of: "## Proxy, record/replay and events"))
        let end = try XCTUnwrap(page.range(of: "## Templates", range: start.upperBound..<page.endIndex))
        let section = page[start.upperBound..<end.lowerBound]
        let blocks = section.components(separatedBy: "```json\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        // The saved-exchange file sample is data, not a configuration.
        let configs = blocks.filter { !$0.contains("\"version\": \"HTTP/1.1\"") }
        XCTAssertGreaterThanOrEqual(configs.count, 8)
        let fixture = try ConfigFixture()
        for (index, config) in configs.enumerated() {
            try fixture.write("example\(index).json", config)
            XCTAssertNoThrow(try fixture.load("example\(index).json"), "example \(index):\n\(config)")
        }
    }
}
