import Foundation

/// A stub file's JSON with one thing broken, for the decoding specs.
///
/// ```swift
/// let json = try JSONFixture("stories.json").setting("stories[2].vote_count", to: "39").text
/// let json = try JSONFixture("stories.json").removing("stories[4].title").text
/// ```
/// Paths are keys joined by `.` with `[n]` for array elements, as in SpecKit's decoding messages.
struct JSONFixture {
    private var root: Any

    init(_ stubFile: String) throws {
        root = try JSONSerialization.jsonObject(with: Data(contentsOf: StubsFolder.file(stubFile)))
    }

    /// The JSON text, keys sorted.
    var text: String {
        let data = try! JSONSerialization.data(withJSONObject: root, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// Replaces the value at `path` (a string, number, bool, `NSNull()`, array or dictionary).
    func setting(_ path: String, to value: Any) -> JSONFixture {
        var copy = self
        copy.root = Self.edit(root, Self.components(path)[...]) { _ in value }
        return copy
    }

    /// Removes the key at `path`.
    func removing(_ path: String) -> JSONFixture {
        var copy = self
        copy.root = Self.edit(root, Self.components(path)[...]) { _ in nil }
        return copy
    }

    private enum Component { case key(String), index(Int) }

    private static func components(_ path: String) -> [Component] {
        var result: [Component] = []
        for part in path.split(separator: ".") {
            var rest = Substring(part)
            if let bracket = rest.firstIndex(of: "[") {
                if bracket > rest.startIndex { result.append(.key(String(rest[..<bracket]))) }
                rest = rest[bracket...]
                while rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                    result.append(.index(Int(rest[rest.index(after: rest.startIndex)..<close])!))
                    rest = rest[rest.index(after: close)...]
                }
            } else {
                result.append(.key(String(rest)))
            }
        }
        return result
    }

    /// Rebuilds `node` with the value at `path` replaced by `change` (nil removes it).
    private static func edit(_ node: Any, _ path: ArraySlice<Component>, _ change: (Any?) -> Any?) -> Any {
        guard let first = path.first else { return change(node) as Any }
        let rest = path.dropFirst()
        switch first {
        case .key(let key):
            guard var object = node as? [String: Any] else { fatalError("JSONFixture: no object at \(key)") }
            if rest.isEmpty {
                object[key] = change(object[key])
            } else {
                guard let child = object[key] else { fatalError("JSONFixture: no key \(key)") }
                object[key] = edit(child, rest, change)
            }
            return object
        case .index(let index):
            guard var array = node as? [Any], array.indices.contains(index) else { fatalError("JSONFixture: no element [\(index)]") }
            if rest.isEmpty {
                if let value = change(array[index]) { array[index] = value } else { array.remove(at: index) }
            } else {
                array[index] = edit(array[index], rest, change)
            }
            return array
        }
    }
}
