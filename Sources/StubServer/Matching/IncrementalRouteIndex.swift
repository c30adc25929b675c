import Foundation

/// The route index of stubs added at run time (`POST /__admin/stubs`), updated in place: adding
/// or removing one stub files or unfiles it under its `RouteKey` and touches nothing else, so
/// 100,000 added stubs cost what one does per change, where `RouteIndex` is rebuilt whole.
///
/// Stubs are known by a sequence number the index hands out, ascending; the **highest** number
/// wins (the newest added stub is tried first). Lookup follows `RouteIndex` exactly — the same
/// exact-path dictionary, segment trie with literal and wildcard edges, ASCII-only list, method
/// buckets and byte guards — with the order reversed, so it answers what a rebuilt index would.
///
/// - adding appends the new (highest) number to one bucket per list it is filed in: amortized
///   O(1), plus one hash probe per path segment of its key (a new trie node per new segment);
/// - removing finds the number by binary search in its buckets and marks it removed: O(log k)
///   for a bucket of k stubs. Marked numbers are skipped by lookups; the owner rebuilds the
///   index from its live stubs (`AddedStubRouter.compactIfSparse`) once they outnumber the
///   live ones, so they never cost more than the live ones and the rebuild is amortized O(1)
///   per removal.
///
/// Not thread-safe: its owner serializes changes against lookups.
struct IncrementalRouteIndex {
    /// The numbers filed in one (list, method) pair, ascending; a removed number `n` is kept
    /// as `~n` (negative) so the order, hence binary search, still holds.
    struct Bucket {
        var method: Int32
        var numbers: [Int32] = []
    }

    /// One list of the index (an exact path, a trie node's prefix or terminal stubs, the
    /// ASCII-only stubs), split by literal method (-1: any method).
    struct List {
        var buckets: [Bucket] = []

        mutating func append(_ number: Int32, method: Int32) {
            for index in buckets.indices where buckets[index].method == method {
                buckets[index].numbers.append(number)
                return
            }
            buckets.append(Bucket(method: method, numbers: [number]))
        }

        /// Marks `number` removed; false if it is not filed here.
        mutating func remove(_ number: Int32, method: Int32) -> Bool {
            guard let bucket = buckets.firstIndex(where: { $0.method == method }) else { return false }
            var low = 0
            var high = buckets[bucket].numbers.count
            while low < high {
                let middle = (low + high) / 2
                let value = buckets[bucket].numbers[middle]
                if (value < 0 ? ~value : value) < number { low = middle + 1 } else { high = middle }
            }
            guard low < buckets[bucket].numbers.count, buckets[bucket].numbers[low] == number else { return false }
            buckets[bucket].numbers[low] = ~number
            return true
        }
    }

    struct Node {
        var prefix = List()
        var terminal = List()
        var wildcard: Int32 = -1
    }

    /// A literal edge: chained from `edgeHeads[hash(parent, bytes)]`.
    struct Edge {
        var parent: Int32
        var bytes: [UInt8]
        var child: Int32
        var next: Int32
    }

    /// The byte checks made before a stub's conditions (`RouteIndex.Guard`, with its own bytes).
    struct PathGuard {
        var prefix: [UInt8] = []
        var suffix: [UInt8] = []
        var prefixNeedsASCII = false
        var suffixNeedsASCII = false
        var hasResidualConditions = true

        @inline(__always)
        func admits(_ path: UnsafeBufferPointer<UInt8>, pathIsASCII: Bool) -> Bool {
            if !prefix.isEmpty, pathIsASCII || !prefixNeedsASCII {
                guard path.count >= prefix.count else { return false }
                for offset in prefix.indices where path[offset] != prefix[offset] { return false }
            }
            if !suffix.isEmpty, pathIsASCII || !suffixNeedsASCII {
                guard path.count >= suffix.count else { return false }
                let base = path.count - suffix.count
                for offset in suffix.indices where path[base + offset] != suffix[offset] { return false }
            }
            return true
        }
    }

    private var methods: [String] = []
    private var methodIDs: [String: Int32] = [:]
    private var exact: [String: List] = [:]
    private var nodes = [Node()]
    private var edges: [Edge] = []
    private var edgeHeads: [UInt64: Int32] = [:]
    private var asciiOnly = List()
    /// By number; a removed number's guard is emptied.
    private var guards: [PathGuard] = []
    private(set) var removedCount = 0

    /// The number the next `insert` hands out (numbers are never reused).
    var nextNumber: Int32 { Int32(guards.count) }

    // MARK: - Changes

    /// Files a stub under `key` and returns its number, higher than every number before.
    @discardableResult
    mutating func insert(_ key: RouteKey, hasResidualConditions: Bool) -> Int32 {
        let number = Int32(guards.count)
        let method = methodID(creating: key.method)
        switch key.path {
        case .exact(let path):
            exact[path, default: List()].append(number, method: method)
        case .unkeyed:
            nodes[0].prefix.append(number, method: method)
        case .segments(let segments, let terminal):
            let node = Int(self.node(for: segments, creating: true)!)
            if terminal { nodes[node].terminal.append(number, method: method) } else { nodes[node].prefix.append(number, method: method) }
            if key.segmentsNeedASCIIPath { asciiOnly.append(number, method: method) }
        }
        guards.append(
            PathGuard(
                prefix: key.prefix, suffix: key.suffix, prefixNeedsASCII: key.prefixNeedsASCIIPath,
                suffixNeedsASCII: key.suffixNeedsASCIIPath, hasResidualConditions: hasResidualConditions))
        return number
    }

    /// Unfiles the stub `number`, filed under `key`. False (nothing changed) when it is not filed.
    @discardableResult
    mutating func remove(_ number: Int32, key: RouteKey) -> Bool {
        guard number >= 0, Int(number) < guards.count else { return false }
        var method: Int32 = -1
        if let name = key.method {
            guard let id = methodIDs[name] else { return false }
            method = id
        }
        let removed: Bool
        switch key.path {
        case .exact(let path):
            removed = exact[path]?.remove(number, method: method) ?? false
        case .unkeyed:
            removed = nodes[0].prefix.remove(number, method: method)
        case .segments(let segments, let terminal):
            guard let node = node(for: segments, creating: false).map(Int.init) else { return false }
            removed = terminal ? nodes[node].terminal.remove(number, method: method) : nodes[node].prefix.remove(number, method: method)
            if removed, key.segmentsNeedASCIIPath { _ = asciiOnly.remove(number, method: method) }
        }
        if removed {
            guards[Int(number)] = PathGuard()
            removedCount += 1
        }
        return removed
    }

    private mutating func methodID(creating name: String?) -> Int32 {
        guard let name else { return -1 }
        if let id = methodIDs[name] { return id }
        methods.append(name)
        methodIDs[name] = Int32(methods.count - 1)
        return Int32(methods.count - 1)
    }

    /// The trie node a segment key leads to (made on the way when `creating`).
    private mutating func node(for segments: [RouteKey.Segment], creating: Bool) -> Int32? {
        var node: Int32 = 0
        for segment in segments {
            switch segment {
            case .literal(let bytes):
                let found = bytes.withUnsafeBufferPointer { literalChild(of: node, $0) }
                if let found {
                    node = found
                } else {
                    guard creating else { return nil }
                    nodes.append(Node())
                    let child = Int32(nodes.count - 1)
                    let hash = bytes.withUnsafeBufferPointer { RouteIndex.hash(parent: node, $0) }
                    edges.append(Edge(parent: node, bytes: bytes, child: child, next: edgeHeads[hash] ?? -1))
                    edgeHeads[hash] = Int32(edges.count - 1)
                    node = child
                }
            case .any:
                if nodes[Int(node)].wildcard >= 0 {
                    node = nodes[Int(node)].wildcard
                } else {
                    guard creating else { return nil }
                    nodes.append(Node())
                    nodes[Int(node)].wildcard = Int32(nodes.count - 1)
                    node = Int32(nodes.count - 1)
                }
            }
        }
        return node
    }

    private func literalChild(of parent: Int32, _ segment: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard !edges.isEmpty, var edge = edgeHeads[RouteIndex.hash(parent: parent, segment)] else { return nil }
        while edge >= 0 {
            let candidate = edges[Int(edge)]
            if candidate.parent == parent, candidate.bytes.count == segment.count,
                candidate.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, segment.baseAddress!, segment.count) == 0 })
            {
                return candidate.child
            }
            edge = candidate.next
        }
        return nil
    }

    // MARK: - Lookup

    /// The highest number whose key admits the request and that `check` accepts (asked only
    /// about stubs with residual conditions, never about one below the best found), or nil.
    func firstMatch<Check: CandidateCheck>(path: String, method: String, check: Check) -> Int? {
        var search = Search(index: self, method: methodIDs[method] ?? -2, askAll: false)
        search.run(path: path, check)
        return search.best < 0 ? nil : Int(search.best)
    }

    /// Every number the index offers for `path` whatever the method (guards applied), ascending.
    func candidatesForEveryMethod(path: String) -> [Int] {
        let offered = OfferedPositions()
        var search = Search(index: self, method: Search.everyMethod, askAll: true)
        search.run(path: path, offered)
        return offered.ascending
    }

    private struct Search: SegmentTrieWalk {
        let index: IncrementalRouteIndex
        let method: Int32
        let askAll: Bool
        var pathIsASCII = true
        var best: Int32 = -1
        static let everyMethod: Int32 = -3

        init(index: IncrementalRouteIndex, method: Int32, askAll: Bool) {
            self.index = index
            self.method = method
            self.askAll = askAll
        }

        mutating func run<Check: CandidateCheck>(path: String, _ check: Check) {
            // As `RouteIndex`: exact paths are not guarded (their stubs' paths are equal).
            if let list = index.exact[path] { offer(list, path: nil, check) }
            var path = path
            path.withUTF8 { bytes in
                for byte in bytes where byte >= 0x80 {
                    pathIsASCII = false
                    break
                }
                visit(0, from: 0, bytes, check)
                if !pathIsASCII { offer(index.asciiOnly, path: bytes, check) }
            }
        }

        func segmentNode(_ node: Int32) -> (prefix: List, terminal: List, wildcard: Int32) {
            let here = index.nodes[Int(node)]
            return (here.prefix, here.terminal, here.wildcard)
        }

        func literalChild(of parent: Int32, _ segment: UnsafeBufferPointer<UInt8>) -> Int32? {
            index.literalChild(of: parent, segment)
        }

        /// Tries a list's buckets for this method, newest first, down to the best so far.
        mutating func offer<Check: CandidateCheck>(_ list: List, path: UnsafeBufferPointer<UInt8>?, _ check: Check) {
            for bucket in list.buckets where bucket.method == -1 || bucket.method == method || method == Self.everyMethod {
                var position = bucket.numbers.count
                while position > 0 {
                    position -= 1
                    let number = bucket.numbers[position]
                    if number < 0 { continue } // removed
                    if number <= best { break }
                    let guarded = index.guards[Int(number)]
                    if let path, !guarded.admits(path, pathIsASCII: pathIsASCII) { continue }
                    if (!guarded.hasResidualConditions && !askAll) || check.accepts(Int(number)) {
                        best = number
                        break
                    }
                }
            }
        }
    }
}
