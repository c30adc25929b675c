/// Lays a ``TextNode`` out as lines of text that are each exactly `width` display columns wide.
///
/// ```swift
/// let lines = TextLayout.lines(for: .text("Hello", alignment: .trailing), width: 10, direction: .leftToRight)
/// // ["     Hello"]
/// ```
public enum TextLayout {
    /// The node's lines, each padded (or truncated with `…`) to exactly `width` columns.
    public static func lines(for node: TextNode, width: Int, direction: LayoutDirection) -> [String] {
        let width = max(width, 0)
        return layout(node, width: width, direction: direction).map { fit($0, width: width, alignment: .leading, direction: direction) }
    }

    static func layout(_ node: TextNode, width: Int, direction: LayoutDirection) -> [String] {
        switch node {
        case let .text(text, style, alignment, lineLimit):
            return layoutText(text, style: style, alignment: alignment, lineLimit: lineLimit, width: width, direction: direction)
        case let .button(title, isEnabled):
            let (open, close) = isEnabled ? ("[ ", " ]") : ("( ", " )")
            let label = open + LineBreaker.truncate(singleLine(title), width: max(width - 4, 0)) + close
            return [fit(label, width: width, alignment: .center, direction: direction)]
        case let .row(leading, trailing):
            return layoutRow(leading: leading, trailing: trailing, width: width, direction: direction)
        case let .stack(children, spacing):
            var lines: [String] = []
            for (index, child) in children.enumerated() {
                if index > 0 { lines.append(contentsOf: blank(width, count: spacing)) }
                lines.append(contentsOf: layout(child, width: width, direction: direction))
            }
            return lines
        case let .list(items, bullet):
            let marker = bullet.isEmpty ? "" : bullet + " "
            let gutter = DisplayWidth.of(marker)
            var lines: [String] = []
            for item in items {
                let body = layout(item, width: max(width - gutter, 0), direction: direction)
                lines.append(contentsOf: decorate(body, first: marker, width: width, direction: direction))
            }
            return lines
        case .divider:
            return [String(repeating: "─", count: width)]
        case let .image(alt, rows):
            return layoutImage(alt: alt, rows: rows, width: width, direction: direction)
        case let .spacer(count):
            return blank(width, count: count)
        case let .titleBar(title, leading, trailing):
            return [
                titleBarLine(title, leading: leading, trailing: trailing, width: width, direction: direction),
                String(repeating: "─", count: width),
            ]
        case let .field(label, text, placeholder, isSecure):
            let labelLines = LineBreaker.wrap(label, width: width).map { fit($0, width: width, alignment: .leading, direction: direction) }
            let inner = max(width - 4, 0)
            let content: String
            if text.isEmpty {
                content = placeholder.isEmpty ? "" : "<" + singleLine(placeholder) + ">"
            } else {
                content = isSecure ? String(repeating: "•", count: text.count) : singleLine(text)
            }
            let value =
                "[ " + fit(LineBreaker.truncate(content, width: inner), width: inner, alignment: .leading, direction: direction) + " ]"
            return (label.isEmpty ? [] : labelLines) + [value]
        case let .activity(label):
            let text = direction == .leftToRight ? "◌ " + singleLine(label) : singleLine(label) + " ◌"
            return [fit(LineBreaker.truncate(text, width: width), width: width, alignment: .center, direction: direction)]
        }
    }

    // MARK: - Nodes

    static func layoutText(
        _ text: String, style: TextStyle, alignment: TextAlignment, lineLimit: Int?,
        width: Int, direction: LayoutDirection
    ) -> [String] {
        let prefix = style == .error ? "! " : ""
        let bodyWidth = max(width - DisplayWidth.of(prefix), 0)
        let lines = LineBreaker.wrap(text, width: bodyWidth, lineLimit: lineLimit)
        let aligned = lines.map { fit($0, width: bodyWidth, alignment: alignment, direction: direction) }
        var result = prefix.isEmpty ? aligned : decorate(aligned, first: prefix, width: width, direction: direction)
        let rule: String? =
            switch style {
            case .title: "═"
            case .headline: "─"
            case .body, .error: nil
            }
        if let rule {
            let ruleWidth = min(lines.map { DisplayWidth.of($0) }.max() ?? 0, width)
            result.append(fit(String(repeating: rule, count: ruleWidth), width: width, alignment: alignment, direction: direction))
        }
        return result
    }

    static func layoutRow(leading: TextNode, trailing: TextNode, width: Int, direction: LayoutDirection) -> [String] {
        guard width >= 3 else { return layout(leading, width: width, direction: direction) }
        let half = (width - 1) / 2
        let leadingFloor = min(naturalWidth(leading), half)
        let trailingWidth = min(naturalWidth(trailing), width - 1 - leadingFloor)
        let leadingWidth = width - 1 - trailingWidth
        let left = layout(leading, width: leadingWidth, direction: direction).map {
            fit($0, width: leadingWidth, alignment: .leading, direction: direction)
        }
        let right = layout(trailing, width: trailingWidth, direction: direction).map {
            fit($0, width: trailingWidth, alignment: .trailing, direction: direction)
        }
        let height = max(left.count, right.count)
        var lines: [String] = []
        for index in 0..<height {
            let l = index < left.count ? left[index] : String(repeating: " ", count: leadingWidth)
            let r = index < right.count ? right[index] : String(repeating: " ", count: trailingWidth)
            lines.append(direction == .leftToRight ? l + " " + r : r + " " + l)
        }
        return lines
    }

    static func layoutImage(alt: String, rows: Int, width: Int, direction: LayoutDirection) -> [String] {
        guard rows > 0 else { return [] }
        let label = singleLine(alt)
        if rows < 3 || width < 4 {
            let line = fit(LineBreaker.truncate("[" + label + "]", width: width), width: width, alignment: .center, direction: direction)
            return [line] + blank(width, count: rows - 1)
        }
        let inner = width - 2
        var lines = ["┌" + String(repeating: "─", count: inner) + "┐"]
        let middle = (rows - 2 - 1) / 2
        for index in 0..<(rows - 2) {
            let content = index == middle ? LineBreaker.truncate(label, width: inner - 2) : ""
            lines.append("│" + fit(content, width: inner, alignment: .center, direction: direction) + "│")
        }
        lines.append("└" + String(repeating: "─", count: inner) + "┘")
        return lines
    }

    static func titleBarLine(_ title: String, leading: String?, trailing: String?, width: Int, direction: LayoutDirection) -> String {
        let third = max(width / 3, 1)
        let lead = leading.map { LineBreaker.truncate(singleLine($0), width: third) } ?? ""
        let trail = trailing.map { LineBreaker.truncate(singleLine($0), width: third) } ?? ""
        let side = max(DisplayWidth.of(lead), DisplayWidth.of(trail))
        // Centre the title on the whole bar when the side items allow it, as UINavigationBar does.
        let symmetric = side == 0 ? width : width - 2 * (side + 1)
        let titleText = singleLine(title)
        if symmetric >= min(DisplayWidth.of(titleText), 8) && symmetric > 0 {
            let centred = fit(LineBreaker.truncate(titleText, width: symmetric), width: symmetric, alignment: .center, direction: direction)
            let padded = side == 0 ? centred : " " + centred + " "
            let leftItem = direction == .leftToRight ? lead : trail
            let rightItem = direction == .leftToRight ? trail : lead
            return fit(leftItem, width: side, alignment: .leading, direction: .leftToRight) + padded
                + fit(rightItem, width: side, alignment: .trailing, direction: .leftToRight)
        }
        let leadWidth = DisplayWidth.of(lead)
        let trailWidth = DisplayWidth.of(trail)
        let middle = max(width - leadWidth - trailWidth - 2, 0)
        let centred = fit(LineBreaker.truncate(titleText, width: middle), width: middle, alignment: .center, direction: direction)
        return direction == .leftToRight ? lead + " " + centred + " " + trail : trail + " " + centred + " " + lead
    }

    // MARK: - Helpers

    /// The width a node would like: its widest unwrapped line.
    static func naturalWidth(_ node: TextNode) -> Int {
        switch node {
        case let .text(text, style, _, _):
            let widest = LineBreaker.visibleParagraphs(text).map { DisplayWidth.of($0) }.max() ?? 0
            return widest + (style == .error ? 2 : 0)
        case let .button(title, _): return DisplayWidth.of(singleLine(title)) + 4
        case let .row(leading, trailing): return naturalWidth(leading) + 1 + naturalWidth(trailing)
        case let .stack(children, _): return children.map(naturalWidth).max() ?? 0
        case let .list(items, bullet):
            return (items.map(naturalWidth).max() ?? 0) + (bullet.isEmpty ? 0 : DisplayWidth.of(bullet) + 1)
        case .divider, .spacer: return 0
        case let .image(alt, _): return DisplayWidth.of(singleLine(alt)) + 4
        case let .titleBar(title, leading, trailing):
            return DisplayWidth.of(title) + DisplayWidth.of(leading ?? "") + DisplayWidth.of(trailing ?? "") + 2
        case let .field(label, text, placeholder, _):
            return max(DisplayWidth.of(label), DisplayWidth.of(text.isEmpty ? placeholder : text) + 6)
        case let .activity(label): return DisplayWidth.of(singleLine(label)) + 2
        }
    }

    /// Pads (or truncates with `…`) one line to exactly `width` columns.
    static func fit(_ line: String, width: Int, alignment: TextAlignment, direction: LayoutDirection) -> String {
        var text = line
        var used = DisplayWidth.of(text)
        if used > width {
            text = LineBreaker.forceEllipsis(text, width: width)
            used = DisplayWidth.of(text)
        }
        let slack = width - used
        if slack <= 0 { return text }
        let leadingPad: Int
        switch alignment {
        case .leading: leadingPad = 0
        case .trailing: leadingPad = slack
        case .center: leadingPad = slack / 2
        }
        let trailingPad = slack - leadingPad
        let (left, right) = direction == .leftToRight ? (leadingPad, trailingPad) : (trailingPad, leadingPad)
        return String(repeating: " ", count: left) + text + String(repeating: " ", count: right)
    }

    /// Puts a gutter (bullet, error mark) on the leading side of the first line and indents the rest.
    static func decorate(_ body: [String], first marker: String, width: Int, direction: LayoutDirection) -> [String] {
        let gutter = DisplayWidth.of(marker)
        let mirrored = String(marker.reversed())
        let indent = String(repeating: " ", count: gutter)
        return body.enumerated().map { index, line in
            let mark = index == 0 ? (direction == .leftToRight ? marker : mirrored) : indent
            let content = fit(line, width: max(width - gutter, 0), alignment: .leading, direction: direction)
            return direction == .leftToRight ? mark + content : content + mark
        }
    }

    static func blank(_ width: Int, count: Int) -> [String] {
        Array(repeating: String(repeating: " ", count: width), count: max(count, 0))
    }

    static func singleLine(_ text: String) -> String {
        LineBreaker.visibleParagraphs(text).joined(separator: " ")
    }
}
