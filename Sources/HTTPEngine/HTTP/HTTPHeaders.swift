/// An ordered list of header fields. Names compare case-insensitively; order and
/// repeated fields are kept, because matchers and `Set-Cookie` depend on them.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers.add(name: "Set-Cookie", value: "a=1")
/// headers["content-type"]   // "application/json"
/// ```
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public private(set) var fields: [Field]

    public init() { fields = [] }

    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The first value of `name`, compared case-insensitively.
    public subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Every value of `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool {
        fields.contains { Self.sameName($0.name, name) }
    }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field named `name` by one field (at the first one's position), or appends it.
    public mutating func replaceOrAdd(name: String, value: String) {
        if let first = fields.firstIndex(where: { Self.sameName($0.name, name) }) {
            fields[first].value = value
            fields[first].name = name
            var index = fields.index(after: first)
            while index < fields.endIndex {
                if Self.sameName(fields[index].name, name) { fields.remove(at: index) } else { index += 1 }
            }
        } else {
            add(name: name, value: value)
        }
    }

    public mutating func remove(name: String) {
        fields.removeAll { Self.sameName($0.name, name) }
    }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// ASCII case-insensitive comparison, without allocating lower-cased copies.
    @inlinable
    public static func sameName(_ a: String, _ b: String) -> Bool {
        var left = a.utf8.makeIterator()
        var right = b.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return true
            case let (x?, y?):
                if x == y { continue }
                let lx = (x >= 65 && x <= 90) ? x | 0x20 : x
                let ly = (y >= 65 && y <= 90) ? y | 0x20 : y
                if lx != ly { return false }
            default: return false
            }
        }
    }
}
