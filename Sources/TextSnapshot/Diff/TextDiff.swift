/// A unified diff of two texts, compared byte for byte on UTF-8 (never `String ==`, which treats
/// NFC and NFD as equal), with a hint line (``DiffHint``) under each changed pair: the first
/// differing display column, then the changed words quoted, or — for invisible, whitespace,
/// combining and look-alike characters — the Unicode names of the differing scalars.
///
/// ```swift
/// let difference = TextDiff.compare(reference: "Ends at 10:13 PM\n", actual: "Ends at 10:13\u{202F}PM\n")!
/// print(difference.summary)   // 1 line differs (line 1, col 14: U+0020 SPACE vs U+202F NARROW NO-BREAK SPACE)
/// print(difference.diff)
/// // --- reference
/// // +++ actual
/// // @@ -1,1 +1,1 @@
/// // -Ends at 10:13 PM
/// // +Ends at 10:13 PM
/// // ?             ^ col 14: U+0020 SPACE vs U+202F NARROW NO-BREAK SPACE
/// ```
public enum TextDiff {
    /// The result of comparing two texts that differ.
    public struct Difference: Sendable, Equatable {
        /// One line: how many lines differ and the first hint.
        public var summary: String
        /// The unified diff with hint lines, capped.
        public var diff: String
    }

    /// Nil when the UTF-8 bytes are identical.
    public static func compare(reference: String, actual: String, context: Int = 3, maxLines: Int = 120) -> Difference? {
        if reference.utf8.elementsEqual(actual.utf8) { return nil }
        let old = Lines(reference)
        let new = Lines(actual)
        let edits = LineDiff.edits(old.keys, new.keys)
        var body: [String] = []
        var changedLines = 0
        var firstHint: (line: Int, text: String)?

        // Lines of each side consumed before edit k, for 1-based hunk headers.
        var oldBefore = [0]
        var newBefore = [0]
        for edit in edits {
            switch edit {
            case .equal: oldBefore.append(oldBefore.last! + 1); newBefore.append(newBefore.last! + 1)
            case .delete: oldBefore.append(oldBefore.last! + 1); newBefore.append(newBefore.last!)
            case .insert: oldBefore.append(oldBefore.last!); newBefore.append(newBefore.last! + 1)
            }
        }
        for range in hunkRanges(edits, context: context) {
            let hunk = Array(edits[range])
            let oldCount = oldBefore[range.upperBound + 1] - oldBefore[range.lowerBound]
            let newCount = newBefore[range.upperBound + 1] - newBefore[range.lowerBound]
            // Unified diff numbers an empty side by the line before it.
            let oldLine = oldBefore[range.lowerBound] + (oldCount == 0 ? 0 : 1)
            let newLine = newBefore[range.lowerBound] + (newCount == 0 ? 0 : 1)
            body.append("@@ -\(oldLine),\(oldCount) +\(newLine),\(newCount) @@")

            var cursor = 0
            while cursor < hunk.count {
                switch hunk[cursor] {
                case let .equal(i, _):
                    body.append(" " + old.lines[i])
                    if i == old.lines.count - 1 && !old.endsWithNewline { body.append("\\ No newline at end of file") }
                    cursor += 1
                default:
                    var deletes: [Int] = []
                    var inserts: [Int] = []
                    while cursor < hunk.count {
                        if case let .delete(i) = hunk[cursor] {
                            deletes.append(i)
                        } else if case let .insert(j) = hunk[cursor] {
                            inserts.append(j)
                        } else {
                            break
                        }
                        cursor += 1
                    }
                    changedLines += max(deletes.count, inserts.count)
                    for pair in 0..<max(deletes.count, inserts.count) {
                        if pair < deletes.count {
                            body.append("-" + old.lines[deletes[pair]])
                            if deletes[pair] == old.lines.count - 1 && !old.endsWithNewline { body.append("\\ No newline at end of file") }
                        }
                        if pair < inserts.count {
                            body.append("+" + new.lines[inserts[pair]])
                            if inserts[pair] == new.lines.count - 1 && !new.endsWithNewline { body.append("\\ No newline at end of file") }
                        }
                        if pair < deletes.count && pair < inserts.count {
                            let hint = DiffHint(
                                old: old.lines[deletes[pair]], oldHasNewline: deletes[pair] < old.lines.count - 1 || old.endsWithNewline,
                                new: new.lines[inserts[pair]], newHasNewline: inserts[pair] < new.lines.count - 1 || new.endsWithNewline)
                            body.append(hint.line)
                            if firstHint == nil { firstHint = (inserts[pair] + 1, hint.explanation) }
                        }
                    }
                }
            }
        }

        var lines = ["--- reference", "+++ actual"]
        if body.count > maxLines {
            let cut = body.count - maxLines
            lines += body.prefix(maxLines)
            lines.append("… \(cut) more diff line\(cut == 1 ? "" : "s") not shown (see the actual file)")
        } else {
            lines += body
        }
        var summary = changedLines == 1 ? "1 line differs" : "\(changedLines) lines differ"
        if let firstHint {
            summary += " (line \(firstHint.line), \(firstHint.text))"
        }
        if old.hasCRLF && !new.hasCRLF {
            summary += "; the reference has CRLF line endings (add `**/__Snapshots__/** text eol=lf` to .gitattributes)"
        }
        return Difference(summary: summary, diff: lines.joined(separator: "\n"))
    }

    /// A text split at LF bytes (CR stays part of its line, so CRLF shows up), with a key per line
    /// that also records a missing final newline.
    struct Lines {
        var lines: [String] = []
        var keys: [[UInt8]] = []
        var endsWithNewline = true
        var hasCRLF = false

        init(_ text: String) {
            let bytes = Array(text.utf8)
            if bytes.isEmpty { return }
            endsWithNewline = bytes.last == 0x0A
            var start = 0
            for index in bytes.indices where bytes[index] == 0x0A {
                append(bytes[start..<index])
                start = index + 1
            }
            if start < bytes.count { append(bytes[start...]) }
            if !endsWithNewline, !keys.isEmpty { keys[keys.count - 1].append(0xFF) } // never valid UTF-8
        }

        mutating func append(_ slice: ArraySlice<UInt8>) {
            if slice.last == 0x0D { hasCRLF = true }
            lines.append(String(decoding: slice, as: UTF8.self))
            keys.append(Array(slice))
        }
    }

    /// Ranges of the edit script that form hunks, with `context` equal lines around each change.
    static func hunkRanges(_ edits: [LineDiff.Edit], context: Int) -> [ClosedRange<Int>] {
        let changed = edits.indices.filter { if case .equal = edits[$0] { return false } else { return true } }
        guard let first = changed.first else { return [] }
        var ranges: [ClosedRange<Int>] = []
        var start = max(first - context, 0)
        var end = min(first + context, edits.count - 1)
        for index in changed.dropFirst() {
            if index - context <= end + 1 {
                end = min(index + context, edits.count - 1)
            } else {
                ranges.append(start...end)
                start = max(index - context, 0)
                end = min(index + context, edits.count - 1)
            }
        }
        ranges.append(start...end)
        return ranges
    }
}
