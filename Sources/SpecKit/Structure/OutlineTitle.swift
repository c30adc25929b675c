import Foundation

/// Fills `<placeholder>` titles of a `ScenarioOutline` from an example row.
enum OutlineTitle {
    /// Names between `<` and `>` in the order they appear.
    static func placeholders(in title: String) -> [String] {
        var names: [String] = []
        var current: String?
        for character in title {
            if character == "<" {
                current = ""
            } else if character == ">", let name = current {
                if !name.isEmpty { names.append(name) }
                current = nil
            } else if current != nil {
                current!.append(character)
            }
        }
        return names
    }

    /// The row's fields: tuple labels, struct properties or string dictionary keys.
    static func fields(of row: Any) -> [ExampleField] {
        if let dictionary = row as? [String: Any] {
            return dictionary.keys.sorted().map { ExampleField(name: $0, value: text(of: dictionary[$0]!)) }
        }
        let mirror = Mirror(reflecting: row)
        if mirror.children.isEmpty {
            return [ExampleField(name: "value", value: text(of: row))]
        }
        return mirror.children.enumerated().map { index, child in
            var name = child.label ?? "\(index)"
            if name.hasPrefix(".") { name.removeFirst() } // unlabeled tuple elements are ".0", ".1"
            return ExampleField(name: name, value: text(of: child.value))
        }
    }

    static func fill(_ title: String, with fields: [ExampleField]) -> (text: String, missing: [String]) {
        var text = title
        var missing: [String] = []
        for name in placeholders(in: title) {
            if let field = fields.first(where: { $0.name == name }) {
                text = text.replacingOccurrences(of: "<\(name)>", with: field.value)
            } else if !missing.contains(name) {
                missing.append(name)
            }
        }
        return (text, missing)
    }

    /// Optionals print as their value or `nil`; everything else as `String(describing:)`.
    static func text(of value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return "nil" }
            return text(of: wrapped)
        }
        return String(describing: value)
    }
}
