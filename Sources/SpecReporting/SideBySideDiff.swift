/// The reference and the actual text of a snapshot as rows of a side-by-side view: equal lines
/// side by side, a changed block's lines paired up, an added or removed line opposite a gap.
/// Lines are matched by a longest common subsequence (snapshots are a few hundred lines at most;
/// longer texts are compared line by line by position).
struct SideBySideDiff: Equatable {
    enum Kind: String { case same, changed, removed, added }

    struct Row: Equatable {
        var kind: Kind
        /// The reference's line (nil opposite an added line).
        var left: String?
        /// The actual line (nil opposite a removed line).
        var right: String?
    }

    var rows: [Row]

    /// Beyond this many lines on a side the texts are paired by position instead.
    static let maximumLines = 2_000

    init(reference: String, actual: String) {
        let left = Self.lines(reference)
        let right = Self.lines(actual)
        // Compared byte for byte: Swift's `==` calls `é` and `e` + U+0301 equal, a snapshot does not.
        let leftBytes = left.map { Array($0.utf8) }
        let rightBytes = right.map { Array($0.utf8) }
        guard left.count <= Self.maximumLines, right.count <= Self.maximumLines else {
            rows = (0..<max(left.count, right.count)).map { index in
                let l = index < left.count ? left[index] : nil
                let r = index < right.count ? right[index] : nil
                let same = index < left.count && index < right.count && leftBytes[index] == rightBytes[index]
                return Row(kind: same ? .same : l == nil ? .added : r == nil ? .removed : .changed, left: l, right: r)
            }
            return
        }
        // lengths[i][j]: the longest common subsequence of left[i...] and right[j...].
        var lengths = [[Int]](repeating: [Int](repeating: 0, count: right.count + 1), count: left.count + 1)
        for i in stride(from: left.count - 1, through: 0, by: -1) {
            for j in stride(from: right.count - 1, through: 0, by: -1) {
                lengths[i][j] = leftBytes[i] == rightBytes[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var rows: [Row] = []
        var removed: [String] = []
        var added: [String] = []
        func flush() {
            for index in 0..<max(removed.count, added.count) {
                let l = index < removed.count ? removed[index] : nil
                let r = index < added.count ? added[index] : nil
                rows.append(Row(kind: l == nil ? .added : r == nil ? .removed : .changed, left: l, right: r))
            }
            removed.removeAll()
            added.removeAll()
        }
        var i = 0
        var j = 0
        while i < left.count || j < right.count {
            if i < left.count, j < right.count, leftBytes[i] == rightBytes[j] {
                flush()
                rows.append(Row(kind: .same, left: left[i], right: right[j]))
                i += 1
                j += 1
            } else if j < right.count, i == left.count || lengths[i][j + 1] >= lengths[i + 1][j] {
                added.append(right[j])
                j += 1
            } else {
                removed.append(left[i])
                i += 1
            }
        }
        flush()
        self.rows = rows
    }

    /// Lines without the final newline every snapshot file ends with (a CR before a LF stays in its line).
    static func lines(_ text: String) -> [String] {
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
