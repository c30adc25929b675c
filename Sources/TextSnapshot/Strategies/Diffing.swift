/// How a strategy compares a reference text with the actual text and explains a difference.
///
/// ```swift
/// let strict = Diffing.lines                     // unified diff with hint lines (the default)
/// let short = Diffing.lines(context: 1, maxLines: 40)
/// ```
public struct Diffing: Sendable {
    /// Nil when the two texts are identical byte for byte; otherwise a summary and a diff.
    public var compare: @Sendable (_ reference: String, _ actual: String) -> TextDiff.Difference?

    public init(compare: @escaping @Sendable (_ reference: String, _ actual: String) -> TextDiff.Difference?) {
        self.compare = compare
    }

    /// A unified line diff (3 lines of context, at most 120 diff lines) with hint lines.
    public static let lines = Diffing.lines()

    /// A unified line diff with the given context and cap.
    public static func lines(context: Int = 3, maxLines: Int = 120) -> Diffing {
        Diffing { reference, actual in TextDiff.compare(reference: reference, actual: actual, context: context, maxLines: maxLines) }
    }
}
