import RehearsalJSON

/// A YAML document that cannot be read, with the place the problem was found.
///
/// ```swift
/// do { _ = try YAMLReader.parse("a: [1, 2") } catch let error as YAMLSyntaxError {
///     print(error)  // malformed YAML at line 1, column 9: expected ',' or ']' in a flow sequence …
/// }
/// ```
public struct YAMLSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// UTF-8 byte offset of the problem in the document.
    public var offset: Int
    /// Line and column (both 1-based; columns count Unicode scalars).
    public var position: SourcePosition

    public var line: Int { position.line }
    public var column: Int { position.column }

    public var description: String { "malformed YAML at \(position): \(message)" }
}

/// A place in a YAML document: byte offset plus line and column, all tracked while scanning so
/// every node and error can name where it was written.
public struct YAMLMark: Sendable, Hashable, CustomStringConvertible {
    /// UTF-8 byte offset.
    public var offset: Int
    /// 0-based line, as scanned.
    var line0: Int
    /// 0-based column in Unicode scalars, as scanned.
    var column0: Int

    init(offset: Int, line0: Int, column0: Int) {
        self.offset = offset
        self.line0 = line0
        self.column0 = column0
    }

    /// 1-based line.
    public var line: Int { line0 + 1 }
    /// 1-based column.
    public var column: Int { column0 + 1 }
    public var position: SourcePosition { SourcePosition(line: line, column: column) }
    public var description: String { position.description }
}

/// Limits that keep hostile documents from exhausting memory or time.
public struct YAMLLimits: Sendable {
    /// Largest input accepted, in bytes.
    public var maximumBytes: Int
    /// Deepest nesting of collections. Lower than JSONParser's 512 because the reader recurses
    /// through bigger frames (about 23 KB a level in a debug build); OpenAPI documents nest far less.
    public var maximumDepth: Int
    /// Most nodes a document may stand for once aliases are expanded (billion-laughs guard).
    public var maximumExpandedNodes: Int

    public init(maximumBytes: Int = 64 << 20, maximumDepth: Int = 128, maximumExpandedNodes: Int = 2_000_000) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
        self.maximumExpandedNodes = maximumExpandedNodes
    }

    public static let `default` = YAMLLimits()
}
