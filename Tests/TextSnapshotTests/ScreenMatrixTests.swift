import Foundation
import TextSnapshot
import XCTest

@testable import TextScreen

final class ScreenMatrixTests: XCTestCase {
    func loginScreen(_ context: SnapshotContext) -> TextNode {
        .stack(
            [
                .titleBar(context.strings("login.title")),
                .field(label: context.strings("login.email"), text: "", placeholder: "you@example.com"),
                .button(context.strings("login.title"), isEnabled: false),
            ], spacing: 1)
    }

    func testAllMissingReferencesAreWrittenInOneRunWithOneFailureEachAndASummary() throws {
        let sandbox = try makeSandbox()
        let report = sandbox.run {
            verifyScreenSnapshots(languages: [.en, .ja, .ar], devices: [.phone4inch, .pad], loginScreen)
        }
        XCTAssertEqual(
            report.identifiers,
            [
                "lang_en_device_phone4inch", "lang_en_device_pad", "lang_ja_device_phone4inch",
                "lang_ja_device_pad", "lang_ar_device_phone4inch", "lang_ar_device_pad",
            ])
        XCTAssertEqual(report.failures.count, 6)
        XCTAssertEqual(report.writtenPaths.count, 6)
        XCTAssertEqual(
            sandbox.snapshotFiles(),
            report.identifiers.map {
                "ScreenMatrixTests/testAllMissingReferencesAreWrittenInOneRunWithOneFailureEachAndASummary.\($0).txt"
            }.sorted())
        XCTAssertTrue(
            report.summary?.hasPrefix("6 of 6 screen snapshot combinations failed: lang_en_device_phone4inch, lang_en_device_pad,") == true,
            report.summary ?? "")
        XCTAssertTrue(report.summary?.contains("wrote 6 reference files:") == true)

        // The next run passes; changing one language's screen fails exactly that language's combinations.
        sandbox.nextRun()
        XCTAssertEqual(
            sandbox.run { verifyScreenSnapshots(languages: [.en, .ja, .ar], devices: [.phone4inch, .pad], loginScreen) }.failures.count, 0)
        sandbox.nextRun()
        let changed = sandbox.run {
            verifyScreenSnapshots(languages: [.en, .ja, .ar], devices: [.phone4inch, .pad]) { context in
                context.language == .ja ? .text("変更") : self.loginScreen(context)
            }
        }
        XCTAssertEqual(changed.failures.map(\.identifier), ["lang_ja_device_phone4inch", "lang_ja_device_pad"])
        XCTAssertEqual(changed.failures.map(\.failure.kind), [.mismatch, .mismatch])
        XCTAssertEqual(changed.summary, "2 of 6 screen snapshot combinations failed: lang_ja_device_phone4inch, lang_ja_device_pad")
    }

    func testOnCIMissingMatrixReferencesFailAndWriteNothing() throws {
        let sandbox = try makeSandbox()
        let report = sandbox.run(environment: ["CI": "true"]) {
            verifyScreenSnapshots(languages: [.de], devices: Device.allCases, loginScreen)
        }
        XCTAssertEqual(report.failures.map(\.failure.kind), Array(repeating: .missingReference, count: 5))
        XCTAssertEqual(sandbox.snapshotFiles(), [])
    }

    func testLandscapeIsNamedOnlyInLandscape() throws {
        let sandbox = try makeSandbox()
        let report = sandbox.run {
            verifyScreenSnapshots(languages: [.fr], devices: [.phone5_5inch], orientations: [.portrait, .landscape]) { _ in TextNode.divider
            }
        }
        XCTAssertEqual(report.identifiers, ["lang_fr_device_phone5_5inch", "lang_fr_device_phone5_5inch_landscape"])
        let landscape = try sandbox.read("ScreenMatrixTests/testLandscapeIsNamedOnlyInLandscape.lang_fr_device_phone5_5inch_landscape.txt")
        XCTAssertTrue(landscape.hasPrefix("# screen lang=fr device=phone5_5inch 92x25 orientation=landscape dir=ltr\n"))
    }

    func testOrthogonalSamplingCoversEachValueOnce() throws {
        let sandbox = try makeSandbox()
        let report = sandbox.run {
            verifyScreenSnapshots(languages: Language.allCases, devices: [.phone4inch, .pad], sampling: .orthogonal) { _ in
                TextNode.spacer(1)
            }
        }
        XCTAssertEqual(
            report.identifiers,
            [
                "lang_en_device_phone4inch", "lang_de_device_pad", "lang_es_device_phone4inch",
                "lang_fr_device_pad", "lang_ja_device_phone4inch", "lang_ar_device_pad",
            ])
    }

    func testDuplicateCombinationsAreReported() throws {
        let sandbox = try makeSandbox()
        let report = sandbox.run {
            verifyScreenSnapshots(languages: [.en, .en], devices: [.pad]) { _ in TextNode.divider }
        }
        XCTAssertEqual(report.identifiers, ["lang_en_device_pad"])
        XCTAssertEqual(report.failures.map(\.failure.kind), [.recorded, .duplicate])
        XCTAssertEqual(
            report.failures[1].failure.message, "Combination lang_en_device_pad appears more than once in the matrix; it was checked once.")
    }

    func testFileTestNameAndLineAreForwarded() throws {
        let sandbox = try makeSandbox()
        let report = sandbox.run {
            verifyScreenSnapshots(
                languages: [.es], devices: [.phone4_7inch], file: "/x/Specs/LoginSpec.swift", testName: "testLoginEmpty()", line: 7
            ) { _ in
                TextNode.divider
            }
        }
        XCTAssertEqual(report.writtenPaths, [sandbox.root + "/LoginSpec/testLoginEmpty.lang_es_device_phone4_7inch.txt"])
    }

    func testAThrowingScreenFailsOnlyItsCombination() throws {
        struct NoStories: Error {}
        let sandbox = try makeSandbox()
        let report = sandbox.run {
            verifyScreenSnapshots(languages: [.en, .de], devices: [.pad]) { context -> TextNode in
                if context.language == .de { throw NoStories() }
                return .divider
            }
        }
        XCTAssertEqual(report.failures.map(\.failure.kind), [.recorded, .snapshotError])
    }

    func testEachCombinationGetsAFreshDeterministicContext() throws {
        let sandbox = try makeSandbox()
        let strings = Localizer(catalog: StringsCatalog(strings: ["en": ["hi": "Hello"], "ja": ["hi": "こんにちは"]]), language: .en)
        var seen: [String] = []
        _ = LocalizationWarnings.quietly {
            sandbox.run { // ar has no strings on purpose: its warning is expected
                verifyScreenSnapshots(languages: [.en, .ja, .ar], devices: [.phone4inch, .pad], localizer: strings) { context -> TextNode in
                    var generator = context.random.generator
                    seen.append(
                        [
                            context.identifier, context.strings("hi"), context.locale.identifier, context.direction.rawValue,
                            context.sizeClass.horizontal.rawValue, "\(context.grid)", context.uuid().uuidString, context.uuid().uuidString,
                            "\(UInt8.random(in: 0...255, using: &generator))", ISO8601DateFormatter().string(from: context.now),
                            "UTC+\(context.timeZone.secondsFromGMT())", "\(context.calendar.identifier)",
                            SnapshotContext.current?.identifier ?? "none",
                        ].joined(separator: " "))
                    return .divider
                }
            }
        }
        XCTAssertEqual(seen.count, 6)
        let random = seen[0].split(separator: " ")[8]
        XCTAssertEqual(
            seen[0],
            "lang_en_device_phone4inch Hello en_US ltr compact 40x35 00000000-0000-0000-0000-000000000001 00000000-0000-0000-0000-000000000002 \(random) 2023-11-14T22:13:20Z UTC+0 gregorian lang_en_device_phone4inch"
        )
        XCTAssertEqual(
            seen[3],
            "lang_ja_device_pad こんにちは ja_JP ltr regular 96x64 00000000-0000-0000-0000-000000000001 00000000-0000-0000-0000-000000000002 \(random) 2023-11-14T22:13:20Z UTC+0 gregorian lang_ja_device_pad"
        )
        XCTAssertTrue(seen[4].hasPrefix("lang_ar_device_phone4inch Hello ar rtl "), seen[4]) // ar falls back to the development language
    }

    func testCombosAndOrthogonalCombosFollowKickstarter() {
        XCTAssertEqual(combos([1, 2], ["a", "b"]).map { "\($0)\($1)" }, ["1a", "1b", "2a", "2b"])
        XCTAssertEqual(combos([1], ["a"], [true, false]).count, 2)
        XCTAssertEqual(orthogonalCombos([1, 2, 3], ["a", "b"]).map { "\($0)\($1)" }, ["1a", "2b", "3a"])
        XCTAssertEqual(orthogonalCombos([1], ["a", "b"], ["x", "y", "z"]).map { "\($0)\($1)\($2)" }, ["1ax", "1by", "1az"])
        XCTAssertTrue(orthogonalCombos([Int](), ["a"]).isEmpty)
    }
}
