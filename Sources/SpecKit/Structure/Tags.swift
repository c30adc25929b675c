import Foundation

/// Tag spelling rules shared by declarations, test names and `BDD_TAGS`.
enum Tags {
    /// `"@smoke"`, `" smoke "` → `"smoke"`; characters that would break a test
    /// name or a filter (whitespace, `,`, `/`, `@`) become `-`.
    static func normalize(_ raw: String) -> String? {
        var tag = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        while tag.hasPrefix("@") { tag.removeFirst() }
        guard !tag.isEmpty else { return nil }
        return String(tag.map { $0.isWhitespace || $0 == "," || $0 == "/" || $0 == "@" ? "-" : $0 })
    }

    static func normalize(_ raw: [String]) -> [String] {
        merge([raw.compactMap(normalize)])
    }

    static func merge(_ lists: [[String]]) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for tag in lists.joined() where seen.insert(tag).inserted {
            result.append(tag)
        }
        return result
    }
}

/// `BDD_TAGS=smoke,~slow`: keep a scenario when it has any of the plain tags
/// (or none are given) and none of the `~` tags.
struct TagFilter: Sendable, Equatable {
    let required: Set<String>
    let excluded: Set<String>

    init(required: Set<String> = [], excluded: Set<String> = []) {
        self.required = required
        self.excluded = excluded
    }

    init(parsing text: String) {
        var required = Set<String>()
        var excluded = Set<String>()
        for item in text.split(separator: ",") {
            let entry = item.trimmingCharacters(in: .whitespaces)
            if entry.hasPrefix("~") || entry.hasPrefix("!") {
                if let tag = Tags.normalize(String(entry.dropFirst())) { excluded.insert(tag) }
            } else if let tag = Tags.normalize(entry) {
                required.insert(tag)
            }
        }
        self.init(required: required, excluded: excluded)
    }

    var isEmpty: Bool { required.isEmpty && excluded.isEmpty }

    func accepts(_ tags: [String]) -> Bool {
        if tags.contains(where: excluded.contains) { return false }
        return required.isEmpty || tags.contains(where: required.contains)
    }

    var summary: String {
        (required.sorted() + excluded.sorted().map { "~" + $0 }).joined(separator: ",")
    }
}
