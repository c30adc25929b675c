import Foundation

/// A bundle or folder without any `.lproj` tables.
public struct LocalizationError: Error, CustomStringConvertible, Sendable, Equatable {
    public var message: String
    public var description: String { message }
}

/// Looks strings up in one language's `.strings` tables, falling back to the development language,
/// then showing the key as `⟦key⟧` so a missing string is visible in every snapshot.
///
/// Tables are parsed by TextScreen itself (the same on Linux and Darwin, with file:line errors);
/// `Bundle.developmentLocalization`, `preferredLocalizations` and `.stringsdict` are never used, as they
/// trap, lie or crash on Linux.
///
/// ```swift
/// let strings = try Localizer(bundle: .module, language: .de)
/// strings("login.title")                       // "Anmelden"
/// strings("login.greeting", "Ada")             // "Hallo Ada!"      ("Hallo %@!")
/// strings.plural("stories.count", count: 3)    // "3 Geschichten"   (stories.count.other = "%d Geschichten")
/// strings("no.such.key")                       // "⟦no.such.key⟧"
/// strings.with(language: .ja)("login.title")   // "ログイン"
/// ```
public struct Localizer: Sendable {
    /// The language strings are looked up in first.
    public let language: Language
    /// The language used when `language` has no entry (a `.lproj` folder name such as `"en"`).
    public let developmentLanguage: String
    /// The table searched by default (`Localizable`).
    public let defaultTable: String
    /// All loaded tables.
    public let catalog: StringsCatalog

    public init(catalog: StringsCatalog, language: Language, developmentLanguage: String = "en", defaultTable: String = "Localizable") {
        self.catalog = catalog
        self.language = language
        self.developmentLanguage = developmentLanguage
        self.defaultTable = defaultTable
    }

    /// Loads `<lang>.lproj/*.strings` from a folder.
    public init(directory: URL, language: Language, developmentLanguage: String = "en", defaultTable: String = "Localizable") throws {
        self.init(
            catalog: try StringsCatalog(directory: directory), language: language,
            developmentLanguage: developmentLanguage, defaultTable: defaultTable)
    }

    /// Loads `<lang>.lproj/*.strings` from a bundle's resources (e.g. `Bundle.module`), optionally from a
    /// `subdirectory` of them (`Resources/` is tried by default, for a target declaring `.copy("Resources")`).
    /// Throws ``LocalizationError`` when no `.lproj` folder is found. The development
    /// language defaults to the bundle's `CFBundleDevelopmentRegion`, else `en`.
    public init(
        bundle: Bundle, subdirectory: String? = nil, language: Language, developmentLanguage: String? = nil,
        defaultTable: String = "Localizable"
    ) throws {
        // Foundation on Linux may report a folder bundle's `Resources/` child as its resourceURL, so try
        // each base with and without the subdirectory and take the first that holds `.lproj` folders.
        var candidates: [URL] = []
        for base in [bundle.resourceURL, bundle.bundleURL].compactMap({ $0 }) {
            candidates.append(base.appendingPathComponent(subdirectory ?? "Resources", isDirectory: true))
            candidates.append(base)
        }
        guard let directory = candidates.first(where: Localizer.containsLocalizations) else {
            throw LocalizationError(message: "no <lang>.lproj folders in " + candidates.map(\.path).joined(separator: ", "))
        }
        let region = bundle.object(forInfoDictionaryKey: "CFBundleDevelopmentRegion") as? String
        try self.init(
            directory: directory, language: language,
            developmentLanguage: developmentLanguage ?? region ?? "en", defaultTable: defaultTable)
    }

    /// The same tables in another language (no reloading).
    public func with(language: Language) -> Localizer {
        Localizer(catalog: catalog, language: language, developmentLanguage: developmentLanguage, defaultTable: defaultTable)
    }

    /// The raw entry for `key` (language first, then the development language), or nil.
    public func entry(_ key: String, table: String? = nil) -> String? {
        let table = table ?? defaultTable
        if let value = catalog.value(forKey: key, table: table, language: language.rawValue) { return value }
        warnIfLanguageIsMissing()
        return catalog.value(forKey: key, table: table, language: developmentLanguage)
    }

    /// A language with no `.lproj` folder at all would silently show the development language's
    /// text; say so once per catalog and language (standard error).
    private func warnIfLanguageIsMissing() {
        let code = language.rawValue
        guard code != developmentLanguage, !catalog.localizations.isEmpty, catalog.folders(for: code).isEmpty else { return }
        LocalizationWarnings.warnOnce(
            key: catalog.source + "|" + code,
            "TextScreen warning: no \(code).lproj strings in \(catalog.source) (it has "
                + catalog.localizations.joined(separator: ", ")
                + "); \(code) screens show \(developmentLanguage) text. Add \(code).lproj/\(defaultTable).strings.")
    }

    /// The string for `key`, formatted with `arguments` (`%@`, `%d`, `%1$@`…) in the language's locale
    /// by ``StringFormatter`` (the same text on Linux and Darwin: no digit grouping).
    /// A missing key renders as `⟦key⟧`.
    public func string(_ key: String, table: String? = nil, arguments: [any CVarArg] = []) -> String {
        guard let format = entry(key, table: table) else { return Localizer.missing(key) }
        return formatted(format, arguments)
    }

    /// `string(key, arguments:)` as a call: `strings("greeting", "Ada")`.
    public func callAsFunction(_ key: String, _ arguments: any CVarArg...) -> String {
        string(key, arguments: arguments)
    }

    /// The plural form of `key` for `count`: looks up `key.<category>` (CLDR category of the language),
    /// then `key.other`, then `key`, in the language and then the development language (with its own
    /// category). Formats with `arguments`, or with `count` when there are none.
    public func plural(_ key: String, count: Int, table: String? = nil, _ arguments: any CVarArg...) -> String {
        let table = table ?? defaultTable
        let categories: [(String, PluralCategory)] = [
            (language.rawValue, language.pluralCategory(for: count)),
            (developmentLanguage, PluralCategory.category(for: count, languageCode: developmentLanguage)),
        ]
        for (code, category) in categories {
            for candidate in ["\(key).\(category.rawValue)", "\(key).other", key] {
                if let format = catalog.value(forKey: candidate, table: table, language: code) {
                    return formatted(format, arguments.isEmpty ? [count] : arguments)
                }
            }
        }
        return Localizer.missing(key)
    }

    /// The string for `key` with Kickstarter-style `%{name}` placeholders replaced.
    public func string(_ key: String, substitutions: [String: String], table: String? = nil) -> String {
        guard var text = entry(key, table: table) else { return Localizer.missing(key) }
        for name in substitutions.keys.sorted() {
            text = text.replacingOccurrences(of: "%{\(name)}", with: substitutions[name] ?? "")
        }
        return text
    }

    static func containsLocalizations(_ directory: URL) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.contains { $0.hasSuffix(".lproj") }
    }

    /// How a missing key is shown: `⟦key⟧`.
    public static func missing(_ key: String) -> String { "⟦\(key)⟧" }

    func formatted(_ format: String, _ arguments: [any CVarArg]) -> String {
        guard !arguments.isEmpty else { return format }
        return StringFormatter.format(format, arguments, locale: language.locale)
    }
}

/// Warnings about missing localizations, each printed once per process.
enum LocalizationWarnings {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var seen: Set<String> = []
    nonisolated(unsafe) private static var messages: [String] = []

    /// Every warning printed so far, oldest first.
    static var emitted: [String] {
        lock.lock()
        defer { lock.unlock() }
        return messages
    }

    nonisolated(unsafe) private static var quietDepth = 0

    static func warnOnce(key: String, _ message: String) {
        lock.lock()
        let first = seen.insert(key).inserted
        if first { messages.append(message) }
        let quiet = quietDepth > 0
        lock.unlock()
        if first && !quiet { FileHandle.standardError.write(Data((message + "\n").utf8)) }
    }

    /// Runs `body` keeping its warnings in ``emitted`` without printing them: for tests that
    /// provoke one on purpose, so a green run prints no warning line.
    static func quietly<R>(_ body: () throws -> R) rethrows -> R {
        lock.lock(); quietDepth += 1; lock.unlock()
        defer { lock.lock(); quietDepth -= 1; lock.unlock() }
        return try body()
    }
}
