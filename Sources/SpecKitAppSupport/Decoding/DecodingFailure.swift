import Foundation

/// Why a value could not be decoded, naming the coding path:
/// `could not decode Story: type mismatch (Int) at stories[2].id: Expected to decode Int but found a string instead.`
public struct DecodingFailure: Error, CustomStringConvertible, SpecKitFailureDescribing, Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// A value had the wrong type; `expected` is the type the decoder wanted.
        case typeMismatch(expected: String)
        /// A required key was absent.
        case keyNotFound(key: String)
        /// A required value was `null`.
        case valueNotFound(expected: String)
        /// The data is not valid JSON, or a value was invalid for its type.
        case dataCorrupted
        /// The file could not be read.
        case unreadable
    }

    /// The type being decoded, e.g. `Story` or `Array<Story>`.
    public let typeName: String
    /// The file decoded from, if any.
    public let source: String?
    public let reason: Reason
    /// `stories[2].id`; empty at the top level.
    public let codingPath: String
    /// The decoder's own explanation (and the underlying error's, if any).
    public let detail: String

    public init(typeName: String, source: String?, reason: Reason, codingPath: String, detail: String) {
        self.typeName = typeName
        self.source = source
        self.reason = reason
        self.codingPath = codingPath
        self.detail = detail
    }

    public var description: String {
        var text = "could not decode \(typeName)"
        if let source { text += " from \(source)" }
        text += ": "
        let location = codingPath.isEmpty ? "at the top level" : "at \(codingPath)"
        switch reason {
        case .typeMismatch(let expected): text += "type mismatch (\(expected)) \(location)"
        case .keyNotFound(let key):
            text += "key not found \(codingPath.isEmpty ? "at \(key)" : "at \(codingPath).\(key)")"
        case .valueNotFound(let expected): text += "value not found (\(expected)) \(location)"
        case .dataCorrupted: text += "data corrupted \(location)"
        case .unreadable: text += "cannot read the file"
        }
        if !detail.isEmpty { text += ": \(detail)" }
        return text
    }

    public var failureDescription: String { description }

    /// Translates Swift's `DecodingError` into a failure with a readable path.
    public init(_ error: Error, decoding type: Any.Type, source: String? = nil) {
        let typeName = String(describing: type)
        guard let decodingError = error as? DecodingError else {
            self.init(
                typeName: typeName, source: source, reason: .dataCorrupted, codingPath: "",
                detail: ErrorDescription.describe(error))
            return
        }
        switch decodingError {
        case .typeMismatch(let expected, let context):
            self.init(
                typeName: typeName, source: source, reason: .typeMismatch(expected: Self.name(of: expected)),
                codingPath: Self.path(context.codingPath), detail: Self.detail(context))
        case .valueNotFound(let expected, let context):
            self.init(
                typeName: typeName, source: source, reason: .valueNotFound(expected: Self.name(of: expected)),
                codingPath: Self.path(context.codingPath), detail: Self.detail(context))
        case .keyNotFound(let key, let context):
            self.init(
                typeName: typeName, source: source, reason: .keyNotFound(key: Self.component(key)),
                codingPath: Self.path(context.codingPath), detail: "")
        case .dataCorrupted(let context):
            self.init(
                typeName: typeName, source: source, reason: .dataCorrupted,
                codingPath: Self.path(context.codingPath), detail: Self.detail(context))
        @unknown default:
            self.init(
                typeName: typeName, source: source, reason: .dataCorrupted, codingPath: "",
                detail: String(describing: decodingError))
        }
    }

    /// `[stories, Index 2, id]` → `stories[2].id`.
    static func path(_ keys: [CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == "\(index)" {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? component(key) : "." + component(key)
            }
        }
        return text
    }

    private static func component(_ key: CodingKey) -> String {
        key.stringValue
    }

    private static func name(of type: Any.Type) -> String {
        String(describing: type)
    }

    private static func detail(_ context: DecodingError.Context) -> String {
        var text = context.debugDescription
        if let underlying = context.underlyingError {
            let reason =
                (underlying as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
                ?? String(describing: underlying)
            if !text.contains(reason) { text += " (\(reason))" }
        }
        return text
    }
}
