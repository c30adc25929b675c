/// A YAML node with the place it was written. Scalars carry both their text and the value the
/// YAML 1.2 core schema (or an explicit tag) gives them; aliases are already replaced by the
/// node their anchor names.
///
/// ```swift
/// let root = try YAMLReader.parse("paths:\n  /pets: {get: {}}\n")
/// root["paths"]?["/pets"]?.mark.line   // 2
/// ```
public struct YAMLNode: Sendable {
    public enum Kind: Sendable {
        case scalar(YAMLScalar)
        case sequence([YAMLNode])
        case mapping([YAMLPair])
    }

    public var kind: Kind
    /// The resolved tag when one was written (`tag:yaml.org,2002:str`, `!local`), else nil.
    public var tag: String?
    /// Where the node (its properties, or its content when it has none) starts.
    public var mark: YAMLMark

    public init(kind: Kind, tag: String? = nil, mark: YAMLMark) {
        self.kind = kind
        self.tag = tag
        self.mark = mark
    }

    /// Member lookup for mappings by a string key (first match); nil otherwise.
    public subscript(key: String) -> YAMLNode? {
        guard case .mapping(let pairs) = kind else { return nil }
        for pair in pairs {
            if case .scalar(let scalar) = pair.key.kind, scalar.keyText == key { return pair.value }
        }
        return nil
    }

    /// Element lookup for sequences; nil otherwise or when out of range.
    public subscript(index: Int) -> YAMLNode? {
        guard case .sequence(let elements) = kind, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    public var scalar: YAMLScalar? {
        if case .scalar(let scalar) = kind { return scalar }
        return nil
    }

    /// How the node is named in messages.
    public var kindDescription: String {
        switch kind {
        case .scalar: "a scalar"
        case .sequence: "a sequence"
        case .mapping: "a mapping"
        }
    }
}

/// One entry of a mapping, in document order (built by the parser).
public struct YAMLPair: Sendable {
    public var key: YAMLNode
    public var value: YAMLNode
}

/// A scalar's source text, style and resolved value.
public struct YAMLScalar: Sendable, Hashable {
    public var text: String
    public var style: YAMLScalarStyle
    public var value: Value

    /// What the scalar means under the core schema (`~` is null, `0x1F` is 31, `.inf` is a float).
    public enum Value: Sendable, Hashable {
        case null
        case bool(Bool)
        /// An integer as canonical decimal text (any size).
        case integer(String)
        /// A float as its value and canonical text (`.inf`, `-.inf`, `.nan`, `1.5e3`).
        case float(Double, String)
        case string(String)
    }

    public init(text: String, style: YAMLScalarStyle, value: Value) {
        self.text = text
        self.style = style
        self.value = value
    }

    /// The canonical text a mapping key becomes when a JSON object needs a string key
    /// (`200` → "200", `true` → "true", `~` → "null", `0x10` → "16").
    public var keyText: String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .integer(let digits): digits
        case .float(_, let text): text
        case .string(let text): text
        }
    }
}
