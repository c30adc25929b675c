/// The walk both route indexes make over their trie of path segments, written once. At each
/// node the path reaches, the node's prefix stubs are candidates; where the path ends, its
/// terminal stubs too; otherwise the walk follows the literal edge for the next segment (empty
/// segments from repeated `/` are skipped) and then the wildcard edge. ``RouteIndex`` keeps its
/// nodes and candidate lists in flat buffers, ``IncrementalRouteIndex`` in growable arrays: each
/// says how to read a node, find a literal child and offer a list.
protocol SegmentTrieWalk {
    /// A node's list of stubs (a group of runs, or a list of buckets).
    associatedtype Candidates

    /// The node's prefix and terminal lists, and its wildcard child (-1 for none).
    func segmentNode(_ node: Int32) -> (prefix: Candidates, terminal: Candidates, wildcard: Int32)
    func literalChild(of parent: Int32, _ segment: UnsafeBufferPointer<UInt8>) -> Int32?
    /// Tries `candidates` against the request (`path` nil: the key alone decides).
    mutating func offer<Check: CandidateCheck>(_ candidates: Candidates, path: UnsafeBufferPointer<UInt8>?, _ check: Check)
}

extension SegmentTrieWalk {
    /// Visits `node`, reached by the path's bytes before `offset`, and every node below it that
    /// the rest of the path reaches.
    mutating func visit<Check: CandidateCheck>(
        _ node: Int32, from offset: Int, _ path: UnsafeBufferPointer<UInt8>, _ check: Check
    ) {
        let here = segmentNode(node)
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
}
