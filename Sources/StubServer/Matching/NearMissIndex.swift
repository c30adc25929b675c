/// One router's stubs arranged for the near-miss ranking of an unmatched request, so that it
/// visits them best-first instead of all 100,000 (`NearMissSearch`).
///
/// A stub's lower bound (`NearMissHint`) depends on the request only through its method, the
/// names of its query parameters and headers, and, for an `equal` uri, how many leading segments
/// the uri shares with the request's path. So stubs are filed by `NearMissHint.Shape` (all the
/// rest of the hint) and, within a shape, in a trie of their uri's leading segment hashes: for
/// one request, the stubs of a shape at one level of the trie all have the same bound, and they
/// lie in one list (the shape's, or the trie node on the request's path), in the order tried.
///
/// Stubs are known by numbers handed out ascending (`insert` returns the next one). A
/// `Router` tries them in that order; an `AddedStubRouter` tries the newest first
/// (`newestFirst`). Adding a stub appends its number to at most five lists (amortized O(1) plus
/// a hash probe per list); removing one finds it by binary search in each (O(log n)) and marks
/// it (`~n`), skipped from then on. The owner rebuilds once removed numbers outnumber live ones
/// (`AddedStubRouter.compactIfSparse`).
struct NearMissIndex: Sendable {
    /// Stub numbers, ascending; a removed number `n` is kept as `~n` so binary search still works.
    struct Numbers: Sendable {
        var values: [Int32] = []

        /// Marks `number` removed; false if it is not here.
        mutating func remove(_ number: Int32) -> Bool {
            var low = 0
            var high = values.count
            while low < high {
                let middle = (low + high) / 2
                let value = values[middle]
                if (value < 0 ? ~value : value) < number { low = middle + 1 } else { high = middle }
            }
            guard low < values.count, values[low] == number else { return false }
            values[low] = ~number
            return true
        }
    }

    /// The stubs of one shape: the representative hint (its segment hashes aside, every
    /// member's), every member, and how many are live.
    struct ShapeGroup: Sendable {
        var hint: NearMissHint
        var members = Numbers()
        var live = 0
    }

    /// A trie node: the stubs of one shape whose `equal` uri has these bytes up to the end of
    /// its `depth`-th segment (`hash`).
    struct NodeKey: Hashable, Sendable {
        var shape: Int32
        var depth: Int32
        var hash: UInt64
    }

    /// The order the router tries its stubs: by number ascending, or (added stubs) descending.
    let newestFirst: Bool
    /// By number; `NearMissHint.removed` once removed.
    private(set) var hints: [NearMissHint] = []
    private(set) var shapes: [ShapeGroup] = []
    private var shapeNumbers: [NearMissHint.Shape: Int32] = [:]
    /// A node's stubs: one number (>= 0), or `~i` for `nodeLists[i]` (most nodes deep in the
    /// trie hold one stub: no array for them).
    private var nodes: [NodeKey: Int32] = [:]
    private(set) var nodeLists: [Numbers] = []

    init(newestFirst: Bool) {
        self.newestFirst = newestFirst
    }

    /// Every number handed out, removed ones included.
    var count: Int { hints.count }

    /// Where the stub `number` is tried among this router's stubs (0: first).
    @inline(__always)
    func position(of number: Int32) -> Int {
        newestFirst ? hints.count - 1 - Int(number) : Int(number)
    }

    // MARK: - Changes

    /// Files the stub `hint` describes and returns its number, higher than every number before.
    @discardableResult
    mutating func insert(_ hint: NearMissHint) -> Int32 {
        let number = Int32(hints.count)
        hints.append(hint)
        // A stub without conditions is never compared.
        guard hint.conditionCount > 0 else { return number }
        let key = hint.shape
        let shape: Int32
        if let known = shapeNumbers[key] {
            shape = known
        } else {
            shape = Int32(shapes.count)
            shapes.append(ShapeGroup(hint: hint))
            shapeNumbers[key] = shape
        }
        shapes[Int(shape)].members.values.append(number)
        shapes[Int(shape)].live += 1
        if hint.pathShape == .singleEqual {
            for depth in Self.trieDepths(hint) {
                let node = NodeKey(shape: shape, depth: Int32(depth), hash: hint.segmentHash(depth))
                switch nodes[node] {
                case nil:
                    nodes[node] = number
                case let single? where single >= 0:
                    nodeLists.append(Numbers(values: [single, number]))
                    nodes[node] = ~Int32(nodeLists.count - 1)
                case let list?:
                    nodeLists[Int(~list)].values.append(number)
                }
            }
        }
        return number
    }

    /// Unfiles the stub `number`. False (nothing changed) when it is not filed.
    @discardableResult
    mutating func remove(_ number: Int32) -> Bool {
        guard number >= 0, Int(number) < hints.count else { return false }
        let hint = hints[Int(number)]
        guard hint.conditionCount > 0, let shape = shapeNumbers[hint.shape], shapes[Int(shape)].members.remove(number) else {
            return false
        }
        hints[Int(number)] = .removed
        shapes[Int(shape)].live -= 1
        if hint.pathShape == .singleEqual {
            for depth in Self.trieDepths(hint) {
                let node = NodeKey(shape: shape, depth: Int32(depth), hash: hint.segmentHash(depth))
                switch nodes[node] {
                case number?: nodes[node] = nil
                case let list? where list < 0: _ = nodeLists[Int(~list)].remove(number)
                default: break
                }
            }
        }
        return true
    }

    /// The trie levels a `.singleEqual` stub is filed at: one per hashed segment of its uri.
    private static func trieDepths(_ hint: NearMissHint) -> Range<Int> {
        1..<(min(Int(hint.segmentCount), NearMissHint.hashedSegments) + 1)
    }

    // MARK: - Lookup

    /// The stubs of `shape` whose uri has the request's bytes up to the end of its
    /// `depth`-th segment: one number, a list, or none.
    enum NodeMembers {
        case none
        case single(Int32)
        case list(Int)
    }

    func members(shape: Int, depth: Int, hash: UInt64) -> NodeMembers {
        switch nodes[NodeKey(shape: Int32(shape), depth: Int32(depth), hash: hash)] {
        case nil: .none
        case let single? where single >= 0: .single(single)
        case let list?: .list(Int(~list))
        }
    }
}
