import Foundation

/// A deterministic text form of any value, for messages and diffs: dictionary
/// keys and set elements sorted, no memory addresses, cycles cut, depth and
/// size bounded.
///
/// ```
/// Story(
///   id: 1
///   title: "Launch"
///   tags: [
///     "swift"
///   ]
/// )
/// ```
enum ValueDump {
    static let maxDepth = 12
    static let maxLines = 5_000

    /// Single-line form: `Story(id: 1, title: "Launch", tags: ["swift"])`.
    static func line(_ value: Any) -> String {
        var visited = Set<ObjectIdentifier>()
        return node(value, depth: 0, visited: &visited).line
    }

    /// Multi-line form, one field or element per line.
    static func lines(_ value: Any) -> [String] {
        var visited = Set<ObjectIdentifier>()
        var out: [String] = []
        node(value, depth: 0, visited: &visited).append(to: &out, indent: "", prefix: "")
        if out.count > maxLines {
            let extra = out.count - maxLines
            out = Array(out.prefix(maxLines)) + ["… \(extra) more lines"]
        }
        return out
    }

    /// Either a leaf (`1`, `"a"`) or a container with an opening, children and closing.
    indirect enum Node {
        case leaf(String)
        case container(open: String, close: String, children: [(label: String?, node: Node)])

        var line: String {
            switch self {
            case .leaf(let text):
                return text
            case .container(let open, let close, let children):
                let inner = children.map { ($0.label.map { "\($0): " } ?? "") + $0.node.line }
                return open + inner.joined(separator: ", ") + close
            }
        }

        func append(to out: inout [String], indent: String, prefix: String) {
            switch self {
            case .leaf(let text):
                let parts = text.split(separator: "\n", omittingEmptySubsequences: false)
                out.append(indent + prefix + parts[0])
                for part in parts.dropFirst() { out.append(indent + String(repeating: " ", count: prefix.count) + part) }
            case .container(let open, let close, let children):
                if children.isEmpty {
                    out.append(indent + prefix + open + close)
                    return
                }
                out.append(indent + prefix + open)
                for child in children {
                    child.node.append(to: &out, indent: indent + "  ", prefix: child.label.map { "\($0): " } ?? "")
                }
                out.append(indent + close)
            }
        }
    }

    static func node(_ value: Any, depth: Int, visited: inout Set<ObjectIdentifier>) -> Node {
        if let leaf = scalar(value) { return .leaf(leaf) }
        let mirror = Mirror(reflecting: value)
        let typeName = name(of: type(of: value))

        if depth >= maxDepth { return .leaf("\(typeName)(…)") }

        var objectID: ObjectIdentifier?
        if mirror.displayStyle == .class, let object = value as AnyObject? {
            let id = ObjectIdentifier(object)
            if visited.contains(id) { return .leaf("\(typeName)(<cycle>)") }
            objectID = id
            visited.insert(id)
        }
        defer { if let objectID { visited.remove(objectID) } }

        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else { return .leaf("nil") }
            return node(wrapped, depth: depth, visited: &visited)
        case .collection:
            let children = mirror.children.map { (label: String?.none, node: node($0.value, depth: depth + 1, visited: &visited)) }
            return .container(open: "[", close: "]", children: children)
        case .set:
            // Three statements, not one map/sorted/map chain: the chain cost the type checker ~20 ms (issue 23).
            var members: [Node] = mirror.children.map { node($0.value, depth: depth + 1, visited: &visited) }
            members.sort { $0.line < $1.line }
            let children = members.map { (label: String?.none, node: $0) }
            return .container(open: "Set([", close: "])", children: children)
        case .dictionary:
            var pairs: [(key: String, node: Node)] = []
            for child in mirror.children {
                let pair = Mirror(reflecting: child.value).children.map(\.value)
                guard pair.count == 2 else { continue }
                pairs.append((node(pair[0], depth: depth + 1, visited: &visited).line, node(pair[1], depth: depth + 1, visited: &visited)))
            }
            pairs.sort { $0.key < $1.key }
            if pairs.isEmpty { return .leaf("[:]") }
            return .container(open: "[", close: "]", children: pairs.map { (label: $0.key, node: $0.node) })
        case .enum:
            let caseName = String(describing: value).split(separator: "(").first.map { String($0) } ?? "\(value)"
            guard let payload = mirror.children.first else { return .leaf(".\(caseName)") }
            let inner = node(payload.value, depth: depth + 1, visited: &visited)
            if case .container(_, _, let children) = inner, Mirror(reflecting: payload.value).displayStyle == .tuple {
                return .container(open: ".\(payload.label ?? caseName)(", close: ")", children: children)
            }
            return .container(open: ".\(payload.label ?? caseName)(", close: ")", children: [(nil, inner)])
        case .tuple:
            let children = mirror.children.map { child -> (label: String?, node: Node) in
                let label = child.label.flatMap { $0.hasPrefix(".") ? nil : $0 }
                return (label, node(child.value, depth: depth + 1, visited: &visited))
            }
            return .container(open: "(", close: ")", children: children)
        case .struct, .class:
            if let described = customDescription(value) { return .leaf(described) }
            var children: [(label: String?, node: Node)] = []
            var current: Mirror? = mirror
            var chain: [Mirror] = []
            while let level = current {
                chain.append(level)
                current = level.superclassMirror
            }
            for level in chain.reversed() {
                for child in level.children {
                    children.append((child.label ?? "_", node(child.value, depth: depth + 1, visited: &visited)))
                }
            }
            return .container(open: "\(typeName)(", close: ")", children: children)
        default:
            if let described = customDescription(value) { return .leaf(described) }
            return .leaf(stripAddresses(String(describing: value)))
        }
    }

    /// Values that print as themselves.
    static func scalar(_ value: Any) -> String? {
        switch value {
        case let string as String: return string.debugDescription
        case let substring as Substring: return String(substring).debugDescription
        case let character as Character: return String(character).debugDescription
        case let bool as Bool: return bool ? "true" : "false"
        case is any BinaryInteger, is Double, is Float, is Decimal: return "\(value)"
        case let url as URL: return url.absoluteString
        case let date as Date: return ISO8601DateFormatter.spec.string(from: date)
        case let data as Data: return "\(data.count) bytes"
        case is Any.Type: return name(of: value as! Any.Type)
        default: return nil
        }
    }

    /// A type's own `description` is used when it has one (and it is not an
    /// `NSObject` default with an address).
    static func customDescription(_ value: Any) -> String? {
        if let object = value as? NSObject {
            let text = object.description
            return text.contains("0x") ? nil : text
        }
        if let convertible = value as? CustomDebugStringConvertible, !(value is any Collection) {
            return stripAddresses(convertible.debugDescription)
        }
        if let convertible = value as? CustomStringConvertible, !(value is any Collection) {
            return stripAddresses(convertible.description)
        }
        return nil
    }

    /// `Story`, `Array<Story>`: unqualified, so private types do not print
    /// as `(unknown context at $…)`.
    static func name(of type: Any.Type) -> String {
        String(describing: type)
    }

    private static let addressPattern = try! NSRegularExpression(pattern: "0x[0-9a-fA-F]{6,}")

    static func stripAddresses(_ text: String) -> String {
        guard text.contains("0x") else { return text }
        let range = NSRange(text.startIndex..., in: text)
        return addressPattern.stringByReplacingMatches(in: text, range: range, withTemplate: "0x…")
    }
}

extension ISO8601DateFormatter {
    nonisolated(unsafe) static let spec: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
}
