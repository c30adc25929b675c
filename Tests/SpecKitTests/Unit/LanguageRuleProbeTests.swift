import Foundation
import XCTest

/// What Linux can show about `FeatureSpec.makeTestCase`'s Apple-platform path: constructing the
/// dynamic `Self` through an inherited, non-required initializer does not compile (the old shape),
/// and constructing through the base metatype compiles when the base initializer is `required`.
///
/// It does NOT show the rule the Darwin code relies on: that Swift waives `required` for an
/// initializer imported from Objective-C (`XCTestCase.init(selector:)`). Linux has no Objective-C
/// import, so that waiver cannot be shown here; `make check-darwin` models `init(selector:)` as
/// `required` for the same reason, and the Mac checklist in docs/apple-platforms.md covers it.
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
        // A `required` base initializer: the nearest contract Linux can compile. Apple's
        // `XCTestCase.init(selector:)` is not `required`; Swift waives the rule for it because it is
        // imported from Objective-C, which this test cannot show.
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
