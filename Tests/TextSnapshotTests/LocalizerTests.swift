import Foundation
import TextSnapshot
import XCTest

@testable import TextScreen

final class LocalizerTests: XCTestCase {
    /// Writes `<lang>.lproj/Localizable.strings` files into a temporary folder.
    func makeStrings(_ tables: [String: String], extra: [String: Data] = [:]) throws -> URL {
        let sandbox = try makeSandbox()
        for (language, text) in tables {
            let folder = sandbox.directory.appendingPathComponent("\(language).lproj", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: folder.appendingPathComponent("Localizable.strings"))
        }
        for (path, data) in extra {
            let url = sandbox.directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        return sandbox.directory
    }

    let english = """
        /* Login screen */
        "login.title" = "Log in";
        "login.greeting" = "Hello, %@!";
        "stories.count.one" = "%d story";
        "stories.count.other" = "%d stories";
        "only.english" = "Only in English";
        "escaped" = "Line\\none \\"quoted\\" \\U00E9";
        """

    func testLoadsFromADirectoryAndFallsBackToTheDevelopmentLanguage() throws {
        let directory = try makeStrings([
            "en": english,
            "de": #""login.title" = "Anmelden"; "login.greeting" = "Hallo, %@!"; // comment"#,
            "ja": #""login.title" = "ログイン";"#,
        ])
        let german = try Localizer(directory: directory, language: .de)
        XCTAssertEqual(german("login.title"), "Anmelden")
        XCTAssertEqual(german("login.greeting", "Ada"), "Hallo, Ada!")
        XCTAssertEqual(german("only.english"), "Only in English")
        XCTAssertEqual(german("no.such.key"), "⟦no.such.key⟧")
        XCTAssertEqual(german.with(language: .ja)("login.title"), "ログイン")
        // No fr.lproj: the fallback's warning is expected here, so it is not printed.
        XCTAssertEqual(LocalizationWarnings.quietly { german.with(language: .fr)("login.title") }, "Log in")
        XCTAssertEqual(german("escaped"), "Line\none \"quoted\" é")
        XCTAssertEqual(german.catalog.localizations, ["de", "en", "ja"])
    }

    func testPluralsUseEachLanguagesCLDRCategories() throws {
        let directory = try makeStrings([
            "en": english,
            "fr": #""stories.count.one" = "%d histoire"; "stories.count.many" = "%d d’histoires"; "stories.count.other" = "%d histoires";"#,
            "ar": """
            "stories.count.zero" = "لا قصص"; "stories.count.one" = "قصة واحدة"; "stories.count.two" = "قصتان";
            "stories.count.few" = "%d قصص"; "stories.count.many" = "%d قصة"; "stories.count.other" = "%d قصة.";
            """,
            "ja": #""stories.count.other" = "%d件のストーリー";"#,
        ])
        let english = try Localizer(directory: directory, language: .en)
        XCTAssertEqual([0, 1, 2].map { english.plural("stories.count", count: $0) }, ["0 stories", "1 story", "2 stories"])
        let french = english.with(language: .fr)
        XCTAssertEqual(
            [0, 1, 2, 1_000_000].map { french.plural("stories.count", count: $0) },
            ["0 histoire", "1 histoire", "2 histoires", "1000000 d’histoires"])
        let arabic = english.with(language: .ar)
        XCTAssertEqual(
            [0, 1, 2, 3, 11, 100].map { arabic.plural("stories.count", count: $0) },
            ["لا قصص", "قصة واحدة", "قصتان", "3 قصص", "11 قصة", "100 قصة."])
        XCTAssertEqual(english.with(language: .ja).plural("stories.count", count: 1), "1件のストーリー")
        // German has no table here: the development language's category and strings are used.
        XCTAssertEqual(english.with(language: .de).plural("stories.count", count: 1), "1 story")
        XCTAssertEqual(english.plural("missing.plural", count: 1), "⟦missing.plural⟧")
    }

    func testCLDRCategoryTable() {
        XCTAssertEqual(Language.es.pluralCategory(for: 1), .one)
        XCTAssertEqual(Language.es.pluralCategory(for: 0), .other)
        XCTAssertEqual(Language.es.pluralCategory(for: 2_000_000), .many)
        XCTAssertEqual(Language.fr.pluralCategory(for: 0), .one)
        XCTAssertEqual(Language.de.pluralCategory(for: 0), .other)
        XCTAssertEqual(Language.ja.pluralCategory(for: 1), .other)
        XCTAssertEqual([102, 103, 111, 199, 200].map { Language.ar.pluralCategory(for: $0) }, [.other, .few, .many, .many, .other])
    }

    func testLoadsFromAFolderBundleAndASubdirectory() throws {
        let directory = try makeStrings(
            [:],
            extra: [
                "Resources/en.lproj/Localizable.strings": Data(english.utf8),
                "Resources/ja.lproj/Localizable.strings": Data(#""login.title" = "ログイン";"#.utf8),
            ])
        // A folder bundle without Info.plist: Bundle.developmentLocalization would trap here.
        let bundle = try XCTUnwrap(Bundle(path: directory.path))
        let strings = try Localizer(bundle: bundle, subdirectory: "Resources", language: .ja)
        XCTAssertEqual(strings("login.title"), "ログイン")
        XCTAssertEqual(strings("login.greeting", "Ada"), "Hello, Ada!")
        XCTAssertEqual(strings.developmentLanguage, "en")
        // `Resources/` is found without naming it.
        XCTAssertEqual(try Localizer(bundle: bundle, language: .ja)("login.title"), "ログイン")
        // A bundle with no tables is an error, not a screen full of ⟦keys⟧.
        let empty = try XCTUnwrap(Bundle(path: try makeSandbox().directory.path))
        XCTAssertThrowsError(try Localizer(bundle: empty, language: .en)) { error in
            XCTAssertTrue("\(error)".hasPrefix("no <lang>.lproj folders in "), "\(error)")
        }
    }

    func testFormattingIsTheSameOnLinuxAndDarwin() {
        let french = Locale(identifier: "fr_FR")
        XCTAssertEqual(StringFormatter.format("%d stories, %.1f%%", [1_000_000, 2.5], locale: french), "1000000 stories, 2,5%")
        XCTAssertEqual(StringFormatter.format("%2$@ %1$@", ["a", "b"], locale: french), "b a")
        XCTAssertEqual(
            StringFormatter.format("[%5d|%-4d|%05.1f|%x|%+d]", [42, 7, 3.14159, 255, 3], locale: Locale(identifier: "en_US")),
            "[   42|7   |003.1|ff|+3]")
        XCTAssertEqual(StringFormatter.format("%ld items, %lld more", [3, -4], locale: Locale(identifier: "de_DE")), "3 items, -4 more")
        XCTAssertEqual(StringFormatter.format("missing %@", [], locale: french), "missing %@")
    }

    func testReadsUTF16AndSubstitutions() throws {
        var utf16 = Data([0xFF, 0xFE])
        utf16.append(#""welcome" = "Welcome, %{name}!";"#.data(using: .utf16LittleEndian)!)
        let directory = try makeStrings([:], extra: ["en.lproj/Localizable.strings": utf16])
        let strings = try Localizer(directory: directory, language: .en)
        XCTAssertEqual(strings.string("welcome", substitutions: ["name": "Ada"]), "Welcome, Ada!")
    }

    func testMalformedTablesNameTheFileLineAndColumn() throws {
        let directory = try makeStrings(["en": "\"a\" = \"1\";\n\"b\" = \"2\"\n\"c\" = \"3\";"])
        XCTAssertThrowsError(try Localizer(directory: directory, language: .en)) { error in
            let failure = error as? StringsFileError
            XCTAssertEqual(failure?.line, 3)
            XCTAssertEqual(failure?.column, 1)
            XCTAssertEqual(failure?.message, "expected `;` after the entry for \"b\"")
            XCTAssertTrue(failure?.file.hasSuffix("en.lproj/Localizable.strings") == true)
        }
        XCTAssertThrowsError(try StringsFileParser.parse(Data("\"open = \"x\";".utf8), file: "t.strings"))
        XCTAssertThrowsError(try StringsFileParser.parse(Data("/* never closed".utf8), file: "t.strings")) { error in
            XCTAssertEqual("\(error)", "t.strings:1:1: unterminated /* comment")
        }
    }
}
