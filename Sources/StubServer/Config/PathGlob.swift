import Foundation

/// File-name globs for `-c` and `include`: `*` and `?` within one path component, `[abc]`
/// character sets, and `**` for any number of directories. Matches are sorted by path so the
/// load order (and so first-match order) is the same on every machine.
enum PathGlob {
    static func hasWildcards(_ pattern: String) -> Bool {
        pattern.contains(where: { $0 == "*" || $0 == "?" || $0 == "[" })
    }

    /// Absolute paths of the regular files matching `pattern` (absolute, or relative to `directory`).
    static func expand(_ pattern: String, relativeTo directory: String) -> [String] {
        let absolute = pattern.hasPrefix("/") ? pattern : directory + "/" + pattern
        let components = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var results: [String] = []
        walk(base: "", components[...], into: &results)
        return Array(Set(results)).sorted()
    }

    private static func walk(base: String, _ components: ArraySlice<String>, into results: inout [String]) {
        guard let component = components.first else {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base, isDirectory: &isDirectory), !isDirectory.boolValue {
                results.append(base)
            }
            return
        }
        let rest = components.dropFirst()
        if component == "**" {
            walk(base: base, rest, into: &results)
            for child in directoryEntries(base) where isDirectory(base + "/" + child) && !child.hasPrefix(".") {
                walk(base: base + "/" + child, components, into: &results)
            }
            return
        }
        guard hasWildcards(component) else {
            walk(base: base + "/" + component, rest, into: &results)
            return
        }
        for child in directoryEntries(base) where matches(Array(component)[...], Array(child)[...]) {
            // Like a shell, `*` does not match hidden files unless the pattern starts with a dot.
            if child.hasPrefix("."), !component.hasPrefix(".") { continue }
            walk(base: base + "/" + child, rest, into: &results)
        }
    }

    private static func directoryEntries(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path.isEmpty ? "/" : path)) ?? []).sorted()
    }

    private static func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }

    /// fnmatch-style matching of one path component.
    static func matches(_ pattern: ArraySlice<Character>, _ name: ArraySlice<Character>) -> Bool {
        guard let first = pattern.first else { return name.isEmpty }
        switch first {
        case "*":
            let rest = pattern.dropFirst()
            var tail = name
            while true {
                if matches(rest, tail) { return true }
                guard !tail.isEmpty else { return false }
                tail = tail.dropFirst()
            }
        case "?":
            guard !name.isEmpty else { return false }
            return matches(pattern.dropFirst(), name.dropFirst())
        case "[":
            guard let character = name.first, let close = pattern.dropFirst().firstIndex(of: "]") else {
                return name.first == "[" && matches(pattern.dropFirst(), name.dropFirst())
            }
            var set = pattern[pattern.index(after: pattern.startIndex)..<close]
            var negate = false
            if set.first == "!" || set.first == "^" {
                negate = true
                set = set.dropFirst()
            }
            var found = false
            var index = set.startIndex
            while index < set.endIndex {
                let low = set[index]
                let next = set.index(after: index)
                if next < set.endIndex, set[next] == "-", set.index(after: next) < set.endIndex {
                    let high = set[set.index(after: next)]
                    if low <= character && character <= high { found = true }
                    index = set.index(after: set.index(after: next))
                } else {
                    if low == character { found = true }
                    index = next
                }
            }
            guard found != negate else { return false }
            return matches(pattern[pattern.index(after: close)...], name.dropFirst())
        default:
            guard name.first == first else { return false }
            return matches(pattern.dropFirst(), name.dropFirst())
        }
    }
}
