/// Draws a laid-out screen in a device frame: a header line, then a box exactly as wide as the
/// grid. Content taller than the screen continues below a fold marker; shorter content is padded to
/// the screen's height so the free space is visible too.
///
/// ```text
/// # screen lang=ja device=phone4inch 40x35 orientation=portrait dir=ltr
/// ┌──────────────────────────────────────┐
/// │ content, 36 columns                  │
/// ├┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄ fold ┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┤
/// │ below the fold                       │
/// └──────────────────────────────────────┘
/// ```
public enum ScreenRenderer {
    /// The snapshot text of `node` in `context` (header + framed grid, LF line ends, no final newline).
    public static func render(_ node: TextNode, in context: SnapshotContext) -> String {
        renderLines(node, in: context).joined(separator: "\n")
    }

    /// The header line followed by the framed lines; every line after the header is exactly
    /// `context.grid.columns` display columns wide.
    public static func renderLines(_ node: TextNode, in context: SnapshotContext) -> [String] {
        let grid = context.grid
        let columns = max(grid.columns, 4)
        let contentWidth = columns - 4
        var visibleRows = max(grid.rows - 2, 1)
        var content: [String]
        if context.traits.dynamicType == .large {
            content = TextLayout.lines(for: node, width: contentWidth, direction: context.direction)
        } else {
            // Larger (or smaller) text: lay out on the narrower text grid, then pad each line to the
            // frame on its trailing side, so wrapping, truncation and the fold follow the text size.
            let text = context.textGrid
            let textWidth = min(max(text.columns - 4, 1), contentWidth)
            visibleRows = max(text.rows - 2, 1)
            let padding = String(repeating: " ", count: contentWidth - textWidth)
            content = TextLayout.lines(for: node, width: textWidth, direction: context.direction).map {
                context.direction == .rightToLeft ? padding + $0 : $0 + padding
            }
        }
        if content.count < visibleRows {
            content += Array(repeating: String(repeating: " ", count: contentWidth), count: visibleRows - content.count)
        }
        var lines = [header(context)]
        lines.append("┌" + String(repeating: "─", count: columns - 2) + "┐")
        for (index, line) in content.enumerated() {
            if index == visibleRows { lines.append(foldLine(columns: columns)) }
            lines.append("│ " + line + " │")
        }
        lines.append("└" + String(repeating: "─", count: columns - 2) + "┘")
        return lines
    }

    /// `# screen lang=ja device=phone4inch 40x35 orientation=portrait dir=ltr` — only values that
    /// cannot vary by host.
    public static func header(_ context: SnapshotContext) -> String {
        "# screen lang=\(context.language.rawValue) device=\(context.device.rawValue) \(context.grid) "
            + "orientation=\(context.orientation.rawValue) dir=\(context.direction.rawValue)" + context.traits.headerSuffix
    }

    static func foldLine(columns: Int) -> String {
        let label = " fold "
        guard columns - 2 >= label.count else { return "├" + String(repeating: "┄", count: max(columns - 2, 0)) + "┤" }
        let fill = columns - 2 - label.count
        let left = fill / 2
        return "├" + String(repeating: "┄", count: left) + label + String(repeating: "┄", count: fill - left) + "┤"
    }
}
