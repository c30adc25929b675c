import Foundation

/// Decides whether the stub at a position accepts the request, once the index has offered it
/// (a type rather than a closure, so the recursive walk passes nothing reference-counted).
protocol CandidateCheck {
    func accepts(_ position: Int) -> Bool
}

/// Finds the first stub in config order that accepts a request without trying every stub, by
/// filing each stub under its `RouteKey`:
///
/// - **exact paths** in a dictionary (Swift string equality, as the `uri` condition compares);
/// - **segment keys** in a trie over path segments: literal edges plus one wildcard edge for
///   template captures. Walking the request's segments visits every node whose key the path
///   satisfies; each node holds prefix stubs (candidates whenever the node is visited) and
///   terminal stubs (candidates when the path ends there). The root's prefix stubs are the
///   truly unkeyed fallbacks;
/// - stubs whose segment key is only valid for ASCII paths, once more, for non-ASCII paths.
///
/// Every list is split by the stub's literal method (or "any method") and ordered by config
/// position. The answer is the smallest position, over the lists the request can reach, whose
/// stub accepts it: each list is tried in order until its first acceptance or until it passes
/// the best position found so far. A stub left out of every reached list fails its own key,
/// hence one of its conditions, so the answer is the one a top-to-bottom scan gives.
///
/// Per request this costs one dictionary lookup, one hash probe per path segment that has a
/// literal edge, and no allocation; candidates are first checked against plain-byte guards
/// (literal prefix and suffix) before any condition object is touched.
struct RouteIndex: Sendable {
    /// `positions[start..<end]`, ascending, of stubs with literal method `methods[method]`, or
    /// any method when `method` is -1.
    struct Run: Sendable {
        var method: Int32
        var start: Int32
        var end: Int32
    }

    /// `runs[start..<end]`.
    struct Group: Sendable, Equatable {
        var start: Int32
        var end: Int32
        static let empty = Group(start: 0, end: 0)
        var isEmpty: Bool { start == end }
    }

    struct Node: Sendable {
        var prefix = Group.empty
        var terminal = Group.empty
        /// The node reached through a template capture or wildcard segment, or -1.
        var wildcard: Int32 = -1
    }

    /// A slot of the literal-edge hash table; `child` is -1 in an empty slot.
    struct Edge: Sendable {
        var parent: Int32
        var child: Int32
        var start: Int32
        var count: Int32
    }

    /// Byte checks made before a stub's conditions: the path starts with
    /// `guardBytes[prefixStart..<prefixStart+prefixCount]` and ends with the suffix bytes.
    struct Guard: Sendable {
        var prefixStart: Int32 = 0
        var prefixCount: Int32 = 0
        var suffixStart: Int32 = 0
        var suffixCount: Int32 = 0
        var prefixNeedsASCII = false
        var suffixNeedsASCII = false
        /// Some condition is left to evaluate after the index and the guard.
        var hasResidualConditions = true
    }

    private let methods: [String]
    private let exact: [String: Group]
    /// Stubs filed under a segment key that holds only for ASCII paths.
    private let asciiOnly: Group
    private let tables: Tables

    /// Files `stubs` (catch-alls are not indexed) under their keys, or under the keys `adjust`
    /// makes of them (for tests).
    init(_ stubs: [CompiledStub], adjustingKeys adjust: ((RouteKey) -> RouteKey)? = nil) {
        var builder = Builder(capacity: stubs.count)
        for (position, stub) in stubs.enumerated() {
            let hasResidual = !stub.residualConditions.isEmpty
            if let adjust {
                builder.add(adjust(stub.routeKey), at: Int32(position), hasResidualConditions: hasResidual)
            } else {
                builder.add(stub.routeKey, at: Int32(position), hasResidualConditions: hasResidual)
            }
        }
        let flat = builder.flatten()
        methods = builder.methods
        exact = flat.exact
        asciiOnly = flat.asciiOnly
        let (edges, edgeBytes) = Self.edgeTable(builder.nodes)
        tables = Tables(
            positions: flat.positions, runs: flat.runs, nodes: flat.nodes, edges: edges, edgeBytes: edgeBytes,
            guards: builder.guards, guardBytes: builder.guardBytes)
    }

    // MARK: - Lookup

    /// The smallest stub position whose key admits the request and that `check` accepts, or
    /// nil. `check` is asked only about stubs with residual conditions, in no particular
    /// order, and never about a position above the best one found.
    func firstMatch<Check: CandidateCheck>(path: String, method: String, check: Check) -> Int? {
        search(path: path, method: method, askAboutEveryStub: false, check)
    }

    @inline(__always)
    private func search<Check: CandidateCheck>(path: String, method: String, askAboutEveryStub: Bool, _ check: Check, everyMethod: Bool = false) -> Int? {
        var search = Search(tables: tables, method: everyMethod ? Search.everyMethod : methodID(method), askAll: askAboutEveryStub)
        if let group = exact[path] {
            search.offer(group, path: nil, check)
        }
        if search.hasKeyedStubs {
            var path = path
            path.withUTF8 { bytes in
                search.walk(bytes, asciiOnly: asciiOnly, check)
            }
        }
        return search.best == Int32.max ? nil : Int(search.best)
    }

    /// Every position the index offers for a request (guards applied), ascending: what
    /// `firstMatch` may try.
    func candidates(path: String, method: String) -> [Int] {
        final class Offered: CandidateCheck {
            var positions = Set<Int>()
            func accepts(_ position: Int) -> Bool {
                positions.insert(position)
                return false
            }
        }
        let offered = Offered()
        _ = search(path: path, method: method, askAboutEveryStub: true, offered)
        return offered.positions.sorted()
    }

    /// Every position the index offers for `path` whatever the method (guards applied),
    /// ascending. A stub left out fails a path condition: the near-miss ranking scores these
    /// first, as they are the only ones whose path can hold.
    func candidatesForEveryMethod(path: String) -> [Int] {
        final class Offered: CandidateCheck {
            var positions: [Int] = []
            func accepts(_ position: Int) -> Bool {
                positions.append(position)
                return false
            }
        }
        let offered = Offered()
        _ = search(path: path, method: "", askAboutEveryStub: true, offered, everyMethod: true)
        // A stub is filed under one key, but its key may be reached twice (literal and wildcard edges).
        var sorted = offered.positions.sorted()
        var kept = 0
        for position in sorted where kept == 0 || sorted[kept - 1] != position {
            sorted[kept] = position
            kept += 1
        }
        sorted.removeLast(sorted.count - kept)
        return sorted
    }

    /// -1 never matches a run's method: only "any method" runs apply.
    @inline(__always)
    private func methodID(_ method: String) -> Int32 {
        for (index, candidate) in methods.enumerated() where candidate == method { return Int32(index) }
        return -2
    }

    // MARK: - Tables

    /// The index's lists, trie and guards in buffers allocated once: a lookup reads them
    /// through plain pointers, with no reference counting on memory every thread shares.
    /// Immutable after `init`, hence safe to share.
    final class Tables: @unchecked Sendable {
        let positions: UnsafeBufferPointer<Int32>
        let runs: UnsafeBufferPointer<Run>
        let nodes: UnsafeBufferPointer<Node>
        let edges: UnsafeBufferPointer<Edge>
        let edgeBytes: UnsafeBufferPointer<UInt8>
        let guards: UnsafeBufferPointer<Guard>
        let guardBytes: UnsafeBufferPointer<UInt8>

        init(
            positions: [Int32], runs: [Run], nodes: [Node], edges: [Edge], edgeBytes: [UInt8], guards: [Guard],
            guardBytes: [UInt8]
        ) {
            func copy<T>(_ array: [T]) -> UnsafeBufferPointer<T> {
                let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(array.count, 1))
                _ = buffer.initialize(from: array)
                return UnsafeBufferPointer(rebasing: buffer[..<array.count])
            }
            self.positions = copy(positions)
            self.runs = copy(runs)
            self.nodes = copy(nodes)
            self.edges = copy(edges)
            self.edgeBytes = copy(edgeBytes)
            self.guards = copy(guards)
            self.guardBytes = copy(guardBytes)
        }

        deinit {
            // Every element type is trivial: freeing the memory is enough.
            for base in [
                UnsafeRawPointer(positions.baseAddress), UnsafeRawPointer(runs.baseAddress), UnsafeRawPointer(nodes.baseAddress),
                UnsafeRawPointer(edges.baseAddress), UnsafeRawPointer(edgeBytes.baseAddress), UnsafeRawPointer(guards.baseAddress),
                UnsafeRawPointer(guardBytes.baseAddress),
            ] {
                base.map { UnsafeMutableRawPointer(mutating: $0).deallocate() }
            }
        }
    }

    /// One lookup's state over the tables (plain values and pointers only).
    private struct Search {
        let positions: UnsafeBufferPointer<Int32>
        let runs: UnsafeBufferPointer<Run>
        let nodes: UnsafeBufferPointer<Node>
        let edges: UnsafeBufferPointer<Edge>
        let edgeBytes: UnsafeBufferPointer<UInt8>
        let guards: UnsafeBufferPointer<Guard>
        let guardBytes: UnsafeBufferPointer<UInt8>
        let method: Int32
        let askAll: Bool
        var pathIsASCII = true
        var best = Int32.max
        /// The method id that takes every run, whatever its method.
        static let everyMethod: Int32 = -3

        init(tables: Tables, method: Int32, askAll: Bool) {
            positions = tables.positions
            runs = tables.runs
            nodes = tables.nodes
            edges = tables.edges
            edgeBytes = tables.edgeBytes
            guards = tables.guards
            guardBytes = tables.guardBytes
            self.method = method
            self.askAll = askAll
        }

        var hasKeyedStubs: Bool { nodes.count > 1 || !nodes[0].prefix.isEmpty || !nodes[0].terminal.isEmpty }

        mutating func walk<Check: CandidateCheck>(_ path: UnsafeBufferPointer<UInt8>, asciiOnly: Group, _ check: Check) {
            for byte in path where byte >= 0x80 {
                pathIsASCII = false
                break
            }
            visit(0, from: 0, path, check)
            if !pathIsASCII { offer(asciiOnly, path: path, check) }
        }

        private mutating func visit<Check: CandidateCheck>(_ node: Int32, from offset: Int, _ path: UnsafeBufferPointer<UInt8>, _ check: Check) {
            let here = nodes[Int(node)]
            offer(here.prefix, path: path, check)
            var start = offset
            while start < path.count, path[start] == UInt8(ascii: "/") { start += 1 }
            if start == path.count {
                offer(here.terminal, path: path, check)
                return
            }
            var end = start
            while end < path.count, path[end] != UInt8(ascii: "/") { end += 1 }
            if let child = literalChild(of: node, UnsafeBufferPointer(rebasing: path[start..<end])) {
                visit(child, from: end, path, check)
            }
            if here.wildcard >= 0 {
                visit(here.wildcard, from: end, path, check)
            }
        }

        /// Tries a group's runs for this method in position order, up to the best so far.
        @inline(__always)
        mutating func offer<Check: CandidateCheck>(_ group: Group, path: UnsafeBufferPointer<UInt8>?, _ check: Check) {
            var runIndex = Int(group.start)
            while runIndex < Int(group.end) {
                let run = runs[runIndex]
                runIndex += 1
                guard run.method == -1 || run.method == method || method == Self.everyMethod else { continue }
                var index = Int(run.start)
                while index < Int(run.end) {
                    let position = positions[index]
                    if position >= best { break }
                    index += 1
                    let guarded = guards[Int(position)]
                    if let path, !passes(guarded, path) { continue }
                    if (!guarded.hasResidualConditions && !askAll) || check.accepts(Int(position)) {
                        best = position
                        break
                    }
                }
            }
        }

        @inline(__always)
        private func passes(_ check: Guard, _ path: UnsafeBufferPointer<UInt8>) -> Bool {
            if check.prefixCount > 0, pathIsASCII || !check.prefixNeedsASCII {
                let count = Int(check.prefixCount)
                guard path.count >= count else { return false }
                let start = Int(check.prefixStart)
                for offset in 0..<count where path[offset] != guardBytes[start + offset] { return false }
            }
            if check.suffixCount > 0, pathIsASCII || !check.suffixNeedsASCII {
                let count = Int(check.suffixCount)
                guard path.count >= count else { return false }
                let start = Int(check.suffixStart)
                let base = path.count - count
                for offset in 0..<count where path[base + offset] != guardBytes[start + offset] { return false }
            }
            return true
        }

        private func literalChild(of parent: Int32, _ segment: UnsafeBufferPointer<UInt8>) -> Int32? {
            guard !edges.isEmpty else { return nil }
            let mask = edges.count - 1
            var slot = Int(truncatingIfNeeded: RouteIndex.hash(parent: parent, segment)) & mask
            while true {
                let edge = edges[slot]
                if edge.child < 0 { return nil }
                if edge.parent == parent, Int(edge.count) == segment.count,
                    memcmp(edgeBytes.baseAddress! + Int(edge.start), segment.baseAddress!, segment.count) == 0
                {
                    return edge.child
                }
                slot = (slot + 1) & mask
            }
        }
    }

    // MARK: - Literal edges

    @inline(__always)
    fileprivate static func hash(parent: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        // FNV-1a; the keys come from the configuration, requests only probe.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(UInt32(bitPattern: parent))
        hash = hash &* 0x100_0000_01b3
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash ^ (hash >> 29)
    }

    private static func edgeTable(_ nodes: [Builder.Node]) -> ([Edge], [UInt8]) {
        let count = nodes.reduce(0) { $0 + $1.literalChildren.count }
        guard count > 0 else { return ([], []) }
        var capacity = 8
        while capacity < count * 2 { capacity *= 2 }
        var table = [Edge](repeating: Edge(parent: -1, child: -1, start: 0, count: 0), count: capacity)
        var bytes: [UInt8] = []
        for (parent, node) in nodes.enumerated() {
            for (segment, child) in node.literalChildren {
                let start = Int32(bytes.count)
                bytes += segment
                var slot = segment.withUnsafeBufferPointer { Int(truncatingIfNeeded: hash(parent: Int32(parent), $0)) } & (capacity - 1)
                while table[slot].child >= 0 { slot = (slot + 1) & (capacity - 1) }
                table[slot] = Edge(parent: Int32(parent), child: child, start: start, count: Int32(segment.count))
            }
        }
        return (table, bytes)
    }

    // MARK: - Building

    private struct Flat {
        var positions: [Int32] = []
        var runs: [Run] = []
        var exact: [String: Group] = [:]
        var nodes: [Node] = []
        var asciiOnly = Group.empty
    }

    /// Collects (list, method, position) entries in one flat array, then sorts them once into
    /// runs: no per-path or per-node arrays while 10,000 stubs are filed.
    private struct Builder {
        struct Node {
            var literalChildren: [[UInt8]: Int32] = [:]
            var wildcard: Int32 = -1
            var prefixList: Int32 = -1
            var terminalList: Int32 = -1
        }

        struct Entry {
            var list: Int32
            var method: Int32
            var position: Int32
        }

        var methods: [String] = []
        private var methodIDs: [String: Int32] = [:]
        var nodes = [Node()]
        private var exactLists: [String: Int32] = [:]
        private var listCount: Int32 = 1  // list 0: stubs keyed for ASCII paths only
        private var entries: [Entry] = []
        var guards: [Guard] = []
        var guardBytes: [UInt8] = []

        init(capacity: Int) {
            entries.reserveCapacity(capacity)
            guards.reserveCapacity(capacity)
        }

        private mutating func newList() -> Int32 {
            listCount += 1
            return listCount - 1
        }

        mutating func add(_ key: RouteKey, at position: Int32, hasResidualConditions: Bool) {
            var method: Int32 = -1
            if let name = key.method {
                if let id = methodIDs[name] {
                    method = id
                } else {
                    method = Int32(methods.count)
                    methodIDs[name] = method
                    methods.append(name)
                }
            }
            switch key.path {
            case .exact(let path):
                let list: Int32
                if let existing = exactLists[path] {
                    list = existing
                } else {
                    list = newList()
                    exactLists[path] = list
                }
                entries.append(Entry(list: list, method: method, position: position))
            case .unkeyed:
                entries.append(Entry(list: prefixList(of: 0), method: method, position: position))
            case .segments(let segments, let terminal):
                var node = 0
                for segment in segments {
                    switch segment {
                    case .literal(let bytes):
                        if let child = nodes[node].literalChildren[bytes] {
                            node = Int(child)
                        } else {
                            nodes.append(Node())
                            nodes[node].literalChildren[bytes] = Int32(nodes.count - 1)
                            node = nodes.count - 1
                        }
                    case .any:
                        if nodes[node].wildcard >= 0 {
                            node = Int(nodes[node].wildcard)
                        } else {
                            nodes.append(Node())
                            nodes[node].wildcard = Int32(nodes.count - 1)
                            node = nodes.count - 1
                        }
                    }
                }
                let list = terminal ? terminalList(of: node) : prefixList(of: node)
                entries.append(Entry(list: list, method: method, position: position))
                if key.segmentsNeedASCIIPath { entries.append(Entry(list: 0, method: method, position: position)) }
            }
            var check = Guard()
            check.hasResidualConditions = hasResidualConditions
            if !key.prefix.isEmpty {
                check.prefixStart = Int32(guardBytes.count)
                check.prefixCount = Int32(key.prefix.count)
                check.prefixNeedsASCII = key.prefixNeedsASCIIPath
                guardBytes += key.prefix
            }
            if !key.suffix.isEmpty {
                check.suffixStart = Int32(guardBytes.count)
                check.suffixCount = Int32(key.suffix.count)
                check.suffixNeedsASCII = key.suffixNeedsASCIIPath
                guardBytes += key.suffix
            }
            guards.append(check)
        }

        private mutating func prefixList(of node: Int) -> Int32 {
            if nodes[node].prefixList < 0 { nodes[node].prefixList = newList() }
            return nodes[node].prefixList
        }

        private mutating func terminalList(of node: Int) -> Int32 {
            if nodes[node].terminalList < 0 { nodes[node].terminalList = newList() }
            return nodes[node].terminalList
        }

        func flatten() -> Flat {
            var flat = Flat()
            // Entries arrive in position order; sorting by (list, method, position) makes every
            // (list, method) run contiguous and ascending.
            let sorted = entries.sorted { ($0.list, $0.method, $0.position) < ($1.list, $1.method, $1.position) }
            var groups = [Group](repeating: .empty, count: Int(listCount))
            flat.positions.reserveCapacity(sorted.count)
            var index = 0
            while index < sorted.count {
                let list = sorted[index].list
                let firstRun = Int32(flat.runs.count)
                while index < sorted.count, sorted[index].list == list {
                    let method = sorted[index].method
                    let start = Int32(flat.positions.count)
                    while index < sorted.count, sorted[index].list == list, sorted[index].method == method {
                        flat.positions.append(sorted[index].position)
                        index += 1
                    }
                    flat.runs.append(Run(method: method, start: start, end: Int32(flat.positions.count)))
                }
                groups[Int(list)] = Group(start: firstRun, end: Int32(flat.runs.count))
            }
            flat.exact = exactLists.mapValues { groups[Int($0)] }  // same keys: no rehashing
            flat.nodes = nodes.map { node in
                RouteIndex.Node(
                    prefix: node.prefixList < 0 ? .empty : groups[Int(node.prefixList)],
                    terminal: node.terminalList < 0 ? .empty : groups[Int(node.terminalList)], wildcard: node.wildcard)
            }
            flat.asciiOnly = groups[0]
            return flat
        }
    }
}
