import Foundation

/// Decides whether the stub at a position accepts the request, once the index has offered it
/// (a type rather than a closure, so the recursive walk passes nothing reference-counted).
protocol CandidateCheck {
    func accepts(_ position: Int) -> Bool
}

/// A check that accepts nothing and keeps every position it is asked about: what an index
/// offers for a request (`RouteIndex.candidates`, `IncrementalRouteIndex.candidatesForEveryMethod`).
final class OfferedPositions: CandidateCheck {
    private var offered = Set<Int>()

    func accepts(_ position: Int) -> Bool {
        offered.insert(position)
        return false
    }

    /// Each position once (a key may be reached through a literal and a wildcard edge), ascending.
    var ascending: [Int] { offered.sorted() }
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
    private func search<Check: CandidateCheck>(
        path: String, method: String, askAboutEveryStub: Bool, _ check: Check, everyMethod: Bool = false
    ) -> Int? {
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
        let offered = OfferedPositions()
        _ = search(path: path, method: method, askAboutEveryStub: true, offered)
        return offered.ascending
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
}
