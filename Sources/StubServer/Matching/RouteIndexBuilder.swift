import Foundation

extension RouteIndex {
    // MARK: - Literal edges

    @inline(__always)
    static func hash(parent: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        // FNV-1a; the keys come from the configuration, requests only probe.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(UInt32(bitPattern: parent))
        hash = hash &* 0x100_0000_01b3
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash ^ (hash >> 29)
    }

    static func edgeTable(_ nodes: [Builder.Node]) -> ([Edge], [UInt8]) {
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

    struct Flat {
        var positions: [Int32] = []
        var runs: [Run] = []
        var exact: [String: Group] = [:]
        var nodes: [Node] = []
        var asciiOnly = Group.empty
    }

    /// Collects (list, method, position) entries in one flat array, then sorts them once into
    /// runs: no per-path or per-node arrays while 10,000 stubs are filed.
    struct Builder {
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
        private var listCount: Int32 = 1 // list 0: stubs keyed for ASCII paths only
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
            flat.exact = exactLists.mapValues { groups[Int($0)] } // same keys: no rehashing
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
