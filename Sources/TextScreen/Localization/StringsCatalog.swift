import Foundation

/// Every `<lang>.lproj/*.strings` table found in one folder, loaded once and shared by the
/// ``Localizer`` of each language.
///
/// ```swift
/// let catalog = try StringsCatalog(directory: URL(fileURLWithPath: "Sources/App/Resources"))
/// catalog.localizations   // ["ar", "de", "en", "es", "fr", "ja"]
/// ```
public final class StringsCatalog: Sendable {
    /// Folder name without `.lproj` (`"ja"`, `"Base"`, `"pt-BR"`) → table name → key → value.
    public let tables: [String: [String: [String: String]]]
    /// Where the tables were read from, for messages.
    public let source: String

    /// Loads every `*.lproj/*.strings` under `directory`. `.stringsdict` files are ignored (they crash
    /// Foundation on Linux; use `key.one`/`key.other` entries instead).
    /// Throws ``StringsFileError`` naming the file, line and column of a malformed table.
    public init(directory: URL) throws {
        let manager = FileManager.default
        let folders = try manager.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".lproj") }.sorted()
        var tables: [String: [String: [String: String]]] = [:]
        for folder in folders {
            let language = String(folder.dropLast(".lproj".count))
            let folderURL = directory.appendingPathComponent(folder, isDirectory: true)
            let files = (try? manager.contentsOfDirectory(atPath: folderURL.path))?.filter { $0.hasSuffix(".strings") }.sorted() ?? []
            var byTable: [String: [String: String]] = [:]
            for file in files {
                let url = folderURL.appendingPathComponent(file)
                let data = try Data(contentsOf: url)
                byTable[String(file.dropLast(".strings".count))] = try StringsFileParser.parse(data, file: url.path)
            }
            tables[language] = byTable
        }
        self.tables = tables
        self.source = directory.path
    }

    /// In-memory tables (language code → key → value) for the `Localizable` table; handy in tests,
    /// like Kickstarter's `MockBundle`.
    public init(strings: [String: [String: String]], source: String = "memory") {
        self.tables = strings.mapValues { ["Localizable": $0] }
        self.source = source
    }

    /// The `.lproj` folder names found, sorted.
    public var localizations: [String] { tables.keys.sorted() }

    /// The value for `key` in one language's table, or nil. `language` matches a folder exactly, then
    /// any regional folder of the same language (`pt-BR` for `pt`); `en` also falls back to `Base`.
    public func value(forKey key: String, table: String, language: String) -> String? {
        for folder in folders(for: language) {
            if let value = tables[folder]?[table]?[key] { return value }
        }
        return nil
    }

    func folders(for language: String) -> [String] {
        var result: [String] = []
        if tables[language] != nil { result.append(language) }
        for folder in localizations where folder != language {
            let base = folder.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { String($0) }
            if base == language { result.append(folder) }
        }
        if language == "en" && tables["Base"] != nil { result.append("Base") }
        return result
    }
}
