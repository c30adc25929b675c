import Foundation

extension RouteIndex {
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
    struct Search {
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

        private mutating func visit<Check: CandidateCheck>(
            _ node: Int32, from offset: Int, _ path: UnsafeBufferPointer<UInt8>, _ check: Check
        ) {
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

}
