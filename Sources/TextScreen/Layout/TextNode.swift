/// A screen described as text: the small layout model laid out on a device's grid.
///
/// Build one per screen state from your view model's outputs (app code may, as this module never
/// imports XCTest), then snapshot it in tests with TextSnapshot's `assertScreenSnapshots(…)` or the
/// `.screen(device:orientation:language:)` strategy.
///
/// ```swift
/// let screen: TextNode = .stack([
///     .titleBar("Log in"),
///     .field(label: "Email", text: "", placeholder: "you@example.com"),
///     .field(label: "Password", text: "", isSecure: true),
///     .text("Invalid email", style: .error),
///     .button("Log in", isEnabled: false),
/// ], spacing: 1)
/// ```
///
/// Rendering (every line padded to exactly the available width):
/// - `.text` wraps by display width, `lineLimit` truncates with `…`; `.title` is underlined with `═`,
///   `.headline` with `─`, `.error` starts with `! `.
/// - `.button` is `[ Title ]` centred; a disabled button is `( Title )`.
/// - `.row` puts `leading` and `trailing` on the two sides (swapped right-to-left).
/// - `.field` is its label on one line and `[value…]` on the next; secure text shows `•`.
public indirect enum TextNode: Sendable, Equatable {
    /// Wrapped text. `lineLimit: nil` means as many lines as it needs.
    case text(String, style: TextStyle = .body, alignment: TextAlignment = .leading, lineLimit: Int? = nil)
    /// A tappable button, centred: `[ Title ]`, or `( Title )` when disabled.
    case button(String, isEnabled: Bool = true)
    /// Two nodes side by side; `trailing` keeps its natural width when it can. Mirrored right-to-left.
    case row(leading: TextNode, trailing: TextNode)
    /// Nodes one under the other with `spacing` blank lines between them.
    case stack([TextNode], spacing: Int = 0)
    /// Items with a bullet in front of each (behind it, right-to-left).
    case list([TextNode], bullet: String = "•")
    /// A full-width `─` line.
    case divider
    /// An image placeholder box `rows` lines tall with its alternative text centred inside.
    case image(alt: String, rows: Int = 3)
    /// `lines` blank lines.
    case spacer(Int = 1)
    /// A navigation bar: optional leading and trailing items, the title centred, a rule below.
    case titleBar(String, leading: String? = nil, trailing: String? = nil)
    /// A text field: its label, then the value (or placeholder) in brackets. Secure text shows `•`.
    case field(label: String, text: String, placeholder: String = "", isSecure: Bool = false)
    /// A busy indicator with a label, centred: `◌ Loading…`.
    case activity(String)
}

/// How a `.text` node is drawn.
public enum TextStyle: String, Sendable, CaseIterable {
    /// Underlined with `═`.
    case title
    /// Underlined with `─`.
    case headline
    /// Plain text.
    case body
    /// Prefixed with `! `.
    case error
}

/// Horizontal alignment. `leading` and `trailing` follow the layout direction.
public enum TextAlignment: String, Sendable, CaseIterable {
    case leading, center, trailing
}

/// Left-to-right or right-to-left; decides which side `leading` is.
public enum LayoutDirection: String, Sendable, CaseIterable, Codable {
    case leftToRight = "ltr"
    case rightToLeft = "rtl"
}

/// Something that can describe itself as a text screen in a given context (a view model's state,
/// a screen builder). `TextNode` is one already.
///
/// ```swift
/// struct LoginScreen: ScreenRenderable {
///     var state: LoginViewModel.State
///     func screen(in context: SnapshotContext) -> TextNode { .text(context.strings("login.title")) }
/// }
/// ```
public protocol ScreenRenderable {
    func screen(in context: SnapshotContext) -> TextNode
}

extension TextNode: ScreenRenderable {
    public func screen(in context: SnapshotContext) -> TextNode { self }
}
