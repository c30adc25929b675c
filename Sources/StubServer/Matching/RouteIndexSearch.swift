import Foundation

extension RouteIndex {
    // MARK: - Tables

    /// The index's lists, trie and guards in buffers allocated once: a lookup reads them
    /// through plain pointers, with no reference counting on memory every thread shares.
    /// Immutable after `init`, hence safe to share.
    final class Tables: @unchecked Sendable {
        /// The buffers as plain pointers: a ``Search`` copies this value, so a lookup touches
        /// no reference count.
        struct Pointers {
            let positions: UnsafeBufferPointer<Int32>
            let runs: UnsafeBufferPointer<Run>
            let nodes: UnsafeBufferPointer<Node>
            let edges: UnsafeBufferPointer<Edge>
            let edgeBytes: UnsafeBufferPointer<UInt8>
            let guards: UnsafeBufferPointer<Guard>
            let guardBytes: UnsafeBufferPointer<UInt8>
        }

        let pointers: Pointers

        init(
            positions: [Int32], runs: [Run], nodes: [Node], edges: [Edge], edgeBytes: [UInt8], guards: [Guard],
            guardBytes: [UInt8]
        ) {
            func copy<T>(_ array: [T]) -> UnsafeBufferPointer<T> {
                let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(array.count, 1))
                _ = buffer.initialize(from: array)
                return UnsafeBufferPointer(rebasing: buffer[..<array.count])
            }
            pointers = Pointers(
                positions: copy(positions), runs: copy(runs), nodes: copy(nodes), edges: copy(edges),
                edgeBytes: copy(edgeBytes), guards: copy(guards), guardBytes: copy(guardBytes))
        }

        deinit {
            // Every element type is trivial: freeing the memory is enough.
            let all = pointers
            for base in [
                UnsafeRawPointer(all.positions.baseAddress), UnsafeRawPointer(all.runs.baseAddress),
                UnsafeRawPointer(all.nodes.baseAddress), UnsafeRawPointer(all.edges.baseAddress),
                UnsafeRawPointer(all.edgeBytes.baseAddress), UnsafeRawPointer(all.guards.baseAddress),
                UnsafeRawPointer(all.guardBytes.baseAddress),
            ] {
                base.map { UnsafeMutableRawPointer(mutating: $0).deallocate() }
            }
        }
    }

    /// One lookup's state over the tables (plain values and pointers only).
    struct Search: SegmentTrieWalk {
        let tables: Tables.Pointers
        let method: Int32
        let askAll: Bool
        var pathIsASCII = true
        var best = Int32.max
        /// The method id that takes every run, whatever its method.
        static let everyMethod: Int32 = -3

        init(tables: Tables, method: Int32, askAll: Bool) {
            self.tables = tables.pointers
            self.method = method
            self.askAll = askAll
        }

        var hasKeyedStubs: Bool { tables.nodes.count > 1 || !tables.nodes[0].prefix.isEmpty || !tables.nodes[0].terminal.isEmpty }

        mutating func walk<Check: CandidateCheck>(_ path: UnsafeBufferPointer<UInt8>, asciiOnly: Group, _ check: Check) {
            for byte in path where byte >= 0x80 {
                pathIsASCII = false
                break
            }
            visit(0, from: 0, path, check)
            if !pathIsASCII { offer(asciiOnly, path: path, check) }
        }

        func segmentNode(_ node: Int32) -> (prefix: Group, terminal: Group, wildcard: Int32) {
            let here = tables.nodes[Int(node)]
            return (here.prefix, here.terminal, here.wildcard)
        }

        /// Tries a group's runs for this method in position order, up to the best so far.
        @inline(__always)
        mutating func offer<Check: CandidateCheck>(_ group: Group, path: UnsafeBufferPointer<UInt8>?, _ check: Check) {
            var runIndex = Int(group.start)
            while runIndex < Int(group.end) {
                let run = tables.runs[runIndex]
                runIndex += 1
                guard run.method == -1 || run.method == method || method == Self.everyMethod else { continue }
                var index = Int(run.start)
                while index < Int(run.end) {
                    let position = tables.positions[index]
                    if position >= best { break }
                    index += 1
                    let guarded = tables.guards[Int(position)]
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
                for offset in 0..<count where path[offset] != tables.guardBytes[start + offset] { return false }
            }
            if check.suffixCount > 0, pathIsASCII || !check.suffixNeedsASCII {
                let count = Int(check.suffixCount)
                guard path.count >= count else { return false }
                let start = Int(check.suffixStart)
                let base = path.count - count
                for offset in 0..<count where path[base + offset] != tables.guardBytes[start + offset] { return false }
            }
            return true
        }

        func literalChild(of parent: Int32, _ segment: UnsafeBufferPointer<UInt8>) -> Int32? {
            guard !tables.edges.isEmpty else { return nil }
            let mask = tables.edges.count - 1
            var slot = Int(truncatingIfNeeded: RouteIndex.hash(parent: parent, segment)) & mask
            while true {
                let edge = tables.edges[slot]
                if edge.child < 0 { return nil }
                if edge.parent == parent, Int(edge.count) == segment.count,
                    memcmp(tables.edgeBytes.baseAddress! + Int(edge.start), segment.baseAddress!, segment.count) == 0
                {
                    return edge.child
                }
                slot = (slot + 1) & mask
            }
        }
    }

}
