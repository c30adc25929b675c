import Foundation
import XCTest

/// The Apple-platform path of `FeatureSpec` cannot be compiled on Linux, but the language rule it
/// depends on can: constructing through a metatype needs a `required` initializer, and a subclass
/// that only inherits its base's initializers has none. These probes compile the same class shape
/// as `FeatureSpec` (an open class with a stored property) with the toolchain running this test.
final class LanguageRuleProbeTests: XCTestCase {
    private static let shape = """
        open class Base { public init(selector: String) {} }
        open class Spec: Base {
            private let slot = [Int]()
            static func make() -> Spec { %@ }
        }
        """

    func testConstructingTheDynamicSelfThroughAnInheritedInitializerDoesNotCompile() throws {
        let result = try typecheck(Self.shape.replacingOccurrences(of: "%@", with: #"self.init(selector: "testFeature")"#))
        XCTAssertNotEqual(result.status, 0, "the old Darwin shape must not compile")
        XCTAssertTrue(result.output.contains("must use a 'required' initializer"), result.output)
    }

    func testConstructingThroughTheBaseMetatypeWithARequiredInitializerCompiles() throws {
        // Apple's `XCTestCase.init(selector:)` is imported from Objective-C, where Swift waives the
        // `required` rule; on Linux a `required` base initializer is the same contract.
        let source = Self.shape
            .replacingOccurrences(of: "public init(selector", with: "public required init(selector")
            .replacingOccurrences(of: "%@", with: #"let type: Base.Type = self; return type.init(selector: "testFeature") as! Spec"#)
        let result = try typecheck(source)
        XCTAssertEqual(result.status, 0, result.output)
    }

    private func typecheck(_ source: String) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString).swift")
        try Data(source.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-swift-version", "6", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { throw XCTSkip("swiftc is not on PATH: \(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
