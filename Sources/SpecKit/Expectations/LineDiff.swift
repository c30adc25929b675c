/// A line diff for failure messages: common lines as context, `-` for the
/// expected side, `+` for the actual side, distant unchanged lines folded.
enum LineDiff {
    static let context = 3
    static let maxOutputLines = 200
    /// Above this many cells the middle is shown as removed-then-added
    /// instead of running the quadratic alignment.
    static let maxAlignmentCells = 4_000_000

    enum Line: Equatable {
        case same(String), removed(String), added(String)
    }

    static func lines(expected: [String], actual: [String]) -> [Line] {
        var prefix = 0
        while prefix < expected.count, prefix < actual.count, expected[prefix] == actual[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < expected.count - prefix, suffix < actual.count - prefix,
            expected[expected.count - 1 - suffix] == actual[actual.count - 1 - suffix]
        {
            suffix += 1
        }
        let a = Array(expected[prefix..<(expected.count - suffix)])
        let b = Array(actual[prefix..<(actual.count - suffix)])
        var result = expected[..<prefix].map { Line.same($0) }
        if a.count * b.count > maxAlignmentCells {
            result += a.map { .removed($0) } + b.map { .added($0) }
        } else {
            result += align(a, b)
        }
        result += expected[(expected.count - suffix)...].map { Line.same($0) }
        return result
    }

    /// Longest-common-subsequence alignment.
    private static func align(_ a: [String], _ b: [String]) -> [Line] {
        let n = a.count
        let m = b.count
        if n == 0 { return b.map { .added($0) } }
        if m == 0 { return a.map { .removed($0) } }
        var table = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var i = 0
        var j = 0
        var out: [Line] = []
        while i < n, j < m {
            if a[i] == b[j] {
                out.append(.same(a[i])); i += 1; j += 1
            } else if table[i + 1][j] >= table[i][j + 1] {
                out.append(.removed(a[i])); i += 1
            } else {
                out.append(.added(b[j])); j += 1
            }
        }
        out += a[i...].map { .removed($0) }
        out += b[j...].map { .added($0) }
        return out
    }

    /// Renders the diff, folding unchanged runs longer than the context.
    static func render(expected: [String], actual: [String]) -> String {
        let diff = lines(expected: expected, actual: actual)
        let changed = diff.indices.filter { if case .same = diff[$0] { return false } else { return true } }
        guard !changed.isEmpty else { return "" }
        var keep = Set<Int>()
        for index in changed {
            for near in max(0, index - context)...min(diff.count - 1, index + context) { keep.insert(near) }
        }
        var out = ["Difference (- expected, + actual):"]
        var folded = false
        for (index, line) in diff.enumerated() {
            guard keep.contains(index) else {
                if !folded { out.append("  …"); folded = true }
                continue
            }
            folded = false
            switch line {
            case .same(let text): out.append("  " + text)
            case .removed(let text): out.append("- " + text)
            case .added(let text): out.append("+ " + text)
            }
            if out.count > maxOutputLines {
                out.append("… (\(diff.count - index - 1) more diff lines)")
                break
            }
        }
        return out.joined(separator: "\n")
    }
}
