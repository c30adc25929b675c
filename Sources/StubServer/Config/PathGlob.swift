import Foundation

/// File-name globs for `-c` and `include`: `*` and `?` within one path component, `[abc]`
/// character sets, and `**` for any number of directories. Matches are sorted by path so the
/// load order (and so first-match order) is the same on every machine.
///
/// Hostile trees and patterns stay cheap: components match in linear time (`GlobPattern`),
/// `**` refuses to enter a directory it has already visited (a symlink loop is an error, not a
/// hang), and the walk is bounded in depth and in directories read.
enum PathGlob {
    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    static let maximumDepth = 64
    static let maximumDirectories = 20_000

    static func hasWildcards(_ pattern: String) -> Bool {
        pattern.contains(where: { $0 == "*" || $0 == "?" || $0 == "[" })
    }

    /// Absolute paths of the regular files matching `pattern` (absolute, or relative to `directory`).
    static func expand(_ pattern: String, relativeTo directory: String) throws(Failure) -> [String] {
        let absolute = pattern.hasPrefix("/") ? pattern : directory + "/" + pattern
        let components = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var walk = Walk()
        for component in components where hasWildcards(component) && component != "**" {
            do throws(GlobPattern.SyntaxError) {
                walk.matchers[component] = try GlobPattern(component, slashes: false)
            } catch {
                throw Failure(description: error.description)
            }
        }
        try walk.walk(base: "", components[...], depth: 0)
        return Array(Set(walk.results)).sorted()
    }

    private struct Walk {
        var results: [String] = []
        var matchers: [String: GlobPattern] = [:]
        /// Real paths of the directories `**` has entered.
        var visited: Set<String> = []
        var directoriesRead = 0

        mutating func walk(base: String, _ components: ArraySlice<String>, depth: Int) throws(Failure) {
            guard let component = components.first else {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: base, isDirectory: &isDirectory), !isDirectory.boolValue {
                    results.append(base)
                }
                return
            }
            guard depth <= PathGlob.maximumDepth else {
                throw Failure(description: "the glob descends more than \(PathGlob.maximumDepth) directories (at \(quoted(base)))")
            }
            let rest = components.dropFirst()
            if component == "**" {
                let real = ConfinedFiles.realPath(base.isEmpty ? "/" : base) ?? base
                guard visited.insert(real).inserted else {
                    throw Failure(
                        description: "\(quoted(base)) leads back to \(quoted(real)), which \"**\" already walked (a symlink loop)")
                }
                try walk(base: base, rest, depth: depth + 1)
                for child in try entries(base) where PathGlob.isDirectory(base + "/" + child) && !child.hasPrefix(".") {
                    try walk(base: base + "/" + child, components, depth: depth + 1)
                }
                return
            }
            guard let matcher = matchers[component] else {
                try walk(base: base + "/" + component, rest, depth: depth + 1)
                return
            }
            for child in try entries(base) where matcher.matches(child) {
                // Like a shell, `*` does not match hidden files unless the pattern starts with a dot.
                if child.hasPrefix("."), !component.hasPrefix(".") { continue }
                try walk(base: base + "/" + child, rest, depth: depth + 1)
            }
        }

        mutating func entries(_ path: String) throws(Failure) -> [String] {
            directoriesRead += 1
            guard directoriesRead <= PathGlob.maximumDirectories else {
                throw Failure(description: "the glob reads more than \(PathGlob.maximumDirectories) directories; narrow it")
            }
            return ((try? FileManager.default.contentsOfDirectory(atPath: path.isEmpty ? "/" : path)) ?? []).sorted()
        }
    }

    static func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }

    /// fnmatch-style matching of one path component (linear time).
    static func matches(_ pattern: String, _ name: String) -> Bool {
        guard let glob = try? GlobPattern(pattern, slashes: false) else { return pattern == name }
        return glob.matches(name)
    }
}
