/// Myers' O((N+M)·D) shortest edit script over two sequences of lines.
///
/// ```swift
/// LineDiff.edits(["a", "b", "c"], ["a", "x", "c"])   // [.equal(0, 0), .delete(1), .insert(1), .equal(2, 2)]
/// ```
public enum LineDiff {
    /// One step of an edit script: keep `old[i]` (= `new[j]`), delete `old[i]`, or insert `new[j]`.
    public enum Edit: Equatable, Sendable {
        case equal(Int, Int)
        case delete(Int)
        case insert(Int)
    }

    /// The shortest edit script turning `old` into `new`; deletions come before insertions within a change.
    public static func edits<Element: Hashable>(_ old: [Element], _ new: [Element]) -> [Edit] {
        // Intern lines so the inner loop compares integers.
        var ids: [Element: Int] = [:]
        func intern(_ element: Element) -> Int {
            if let id = ids[element] { return id }
            let id = ids.count
            ids[element] = id
            return id
        }
        let a = old.map(intern)
        let b = new.map(intern)

        let (prefix, suffix) = commonEnds(a, b)

        var result: [Edit] = (0..<prefix).map { .equal($0, $0) }
        let middleA = Array(a[prefix..<(a.count - suffix)])
        let middleB = Array(b[prefix..<(b.count - suffix)])
        for edit in myers(middleA, middleB) {
            switch edit {
            case let .equal(i, j): result.append(.equal(i + prefix, j + prefix))
            case let .delete(i): result.append(.delete(i + prefix))
            case let .insert(j): result.append(.insert(j + prefix))
            }
        }
        for offset in 0..<suffix {
            result.append(.equal(a.count - suffix + offset, b.count - suffix + offset))
        }
        return result
    }

    /// How many elements `a` and `b` share at the start, then at the end of what is left (the
    /// part a diff need not search).
    static func commonEnds<Element: Equatable>(_ a: [Element], _ b: [Element]) -> (prefix: Int, suffix: Int) {
        var prefix = 0
        while prefix < a.count && prefix < b.count && a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix && suffix < b.count - prefix && a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        return (prefix, suffix)
    }

    static func myers(_ a: [Int], _ b: [Int]) -> [Edit] {
        let n = a.count
        let m = b.count
        if n == 0 { return (0..<m).map { .insert($0) } }
        if m == 0 { return (0..<n).map { .delete($0) } }
        let max = n + m
        let offset = max
        var v = [Int](repeating: 0, count: 2 * max + 2)
        var trace: [[Int]] = []
        search: for d in 0...max {
            trace.append(v)
            var k = -d
            while k <= d {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1] // down: insertion
                } else {
                    x = v[offset + k - 1] + 1 // right: deletion
                }
                var y = x - k
                while x < n && y < m && a[x] == b[y] { x += 1; y += 1 }
                v[offset + k] = x
                if x >= n && y >= m { break search }
                k += 2
            }
        }
        // Walk the trace back from (n, m).
        var edits: [Edit] = []
        var x = n
        var y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let v = trace[d]
            let k = x - y
            let previousK: Int
            if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                previousK = k + 1
            } else {
                previousK = k - 1
            }
            let previousX = v[offset + previousK]
            let previousY = previousX - previousK
            while x > previousX && y > previousY {
                x -= 1; y -= 1
                edits.append(.equal(x, y))
            }
            if d > 0 {
                if x == previousX { edits.append(.insert(previousY)) } else { edits.append(.delete(previousX)) }
            }
            x = previousX
            y = previousY
        }
        edits.reverse()
        return reorderChanges(edits)
    }

    /// Within each run of changes, put deletions first so changed lines pair up (- then +).
    static func reorderChanges(_ edits: [Edit]) -> [Edit] {
        var result: [Edit] = []
        var deletes: [Edit] = []
        var inserts: [Edit] = []
        func flush() {
            result += deletes
            result += inserts
            deletes.removeAll()
            inserts.removeAll()
        }
        for edit in edits {
            switch edit {
            case .equal: flush(); result.append(edit)
            case .delete: deletes.append(edit)
            case .insert: inserts.append(edit)
            }
        }
        flush()
        return result
    }
}
