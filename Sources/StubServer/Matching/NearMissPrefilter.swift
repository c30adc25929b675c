/// What the near-miss ranking can tell about a stub without evaluating a condition: enough
/// for a lower bound on its score when its path is known to fail. Computed once per stub.
///
/// The bound counts the conditions it can prove fail from a few numbers computed once per
/// request (`NearMissRequestFacts`): the path (one is known to fail), an `equal` method, and
/// query parameters or headers the request does not have at all; it adds their distances in
/// the stub's condition order, with the arithmetic the full score uses. So a stub that fails
/// exactly those has a score equal to its bound, and one that fails more a worse score: a
/// stub whose bound is not below the list's last cannot make the list.
struct NearMissHint: Sendable {
    enum PathShape: UInt8, Sendable {
        /// No path condition: the route index always offers the stub.
        case none
        /// One path condition, an `equal` uri: its distance depends on the segments it shares.
        case singleEqual
        /// One path condition of another kind: a failure is 1 off.
        case singleOther
        /// Several path conditions: at least one fails, at least 0.3 off.
        case several
    }

    /// What one condition the bound may count adds, in condition order.
    enum Term: UInt8, Sendable {
        case path, method, absentQuery, absentHeader
    }

    /// How many prefixes of an `equal` uri are hashed: paths sharing more segments than this
    /// are bounded as if they shared every segment they could.
    static let hashedSegments = 4

    var conditionCount: Int
    /// The method an `equal` method condition wants (it fails for any other).
    var method: String?
    var pathShape = PathShape.none
    /// `.singleEqual`: the uri's segment count and the hashes of its bytes up to the end of
    /// each of its first `hashedSegments` segments (`NearMissRequestFacts.segmentHashes`).
    var segmentCount: Int32 = 0
    var segmentHashes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    /// Up to four terms in condition order; the absent-field ones name their field by
    /// `fieldHashes` (in the same order) and add `fieldDistances`.
    var terms: (Term, Term, Term, Term) = (.path, .path, .path, .path)
    var termCount: UInt8 = 0
    var fieldHashes: (UInt64, UInt64) = (0, 0)
    var fieldDistances: (Double, Double) = (0, 0)

    /// The place of a removed stub: no conditions, never ranked.
    static let removed = NearMissHint()

    private init() {
        conditionCount = 0
    }

    init(_ stub: CompiledStub) {
        conditionCount = stub.conditions.count
        var pathConditions = 0
        var shape = PathShape.none
        var fields = 0
        func add(_ term: Term) {
            guard termCount < 4 else { return }
            switch termCount {
            case 0: terms.0 = term
            case 1: terms.1 = term
            case 2: terms.2 = term
            default: terms.3 = term
            }
            termCount += 1
        }
        for condition in stub.conditions {
            switch condition.test {
            case .method(.equal(let expected)):
                method = expected
                add(.method)
            case .uri(.equal(let expected)):
                shape = .singleEqual
                var facts = NearMissRequestFacts.Path()
                facts.measure(expected)
                segmentCount = Int32(facts.segmentCount)
                segmentHashes = facts.segmentHashes
            case .query(let name, let predicate), .header(let name, let predicate):
                // Fails whenever the field is absent, unless it asks for absence.
                if case .exist(false) = predicate { break }
                guard fields < 2, termCount < 4 else { break }
                let isHeader: Bool
                if case .header = condition.test { isHeader = true } else { isHeader = false }
                // A query name compares by Unicode equivalence (`K` equals KELVIN SIGN): only
                // an ASCII one is proven absent by bytes.
                guard isHeader || name.utf8.allSatisfy({ $0 < 0x80 }) else { break }
                let hash = isHeader ? NearMissRequestFacts.headerNameHash(name) : NearMissRequestFacts.queryNameHash(name)
                let far: Double
                switch predicate {
                case .exist: far = 0.6
                case .equal: far = 1
                default: far = 0.8
                }
                let distance = NearMissRanking.weight(condition) * far
                if fields == 0 {
                    (fieldHashes.0, fieldDistances.0) = (hash, distance)
                } else {
                    (fieldHashes.1, fieldDistances.1) = (hash, distance)
                }
                fields += 1
                add(isHeader ? .absentHeader : .absentQuery)
            default: break
            }
            if condition.aspect == .path {
                pathConditions += 1
                add(.path)
                if case .uri(.equal) = condition.test {} else { shape = .singleOther }
            }
        }
        pathShape = pathConditions == 0 ? .none : (pathConditions == 1 ? shape : .several)
    }

    /// The best score the stub can have when its path fails, or nil when that is unknown.
    @inline(__always)
    func bestScoreWithFailedPath(_ request: NearMissRequestFacts) -> NearMissRanking.Score? {
        let pathWeight = 8.0
        let path: Double
        switch pathShape {
        case .none: return nil
        case .singleEqual:
            path =
                pathWeight
                * NearMissRanking.pathDistance(
                    common: sharedSegmentsAtMost(request.path), longest: max(Int(segmentCount), request.path.segmentCount))
        case .singleOther: path = pathWeight * 1
        case .several:
            // Several path terms in unknown order: only the path and method (two terms add the
            // same in either order).
            let methodFailed = method.map { $0 != request.method } ?? false
            let failed = methodFailed ? 2 : 1
            return NearMissRanking.Score(
                pathMiss: 2, methodFailed: methodFailed, failedCount: failed,
                distance: methodFailed ? pathWeight * 0.3 + 5 : pathWeight * 0.3,
                matchedCount: conditionCount - failed)
        }
        var methodFailed = false
        var failed = 0
        var distance = 0.0
        var field = 0
        for slot in 0..<Int(termCount) {
            let term: Term
            switch slot {
            case 0: term = terms.0
            case 1: term = terms.1
            case 2: term = terms.2
            default: term = terms.3
            }
            switch term {
            case .path:
                failed += 1
                distance += path
            case .method:
                if let method, method != request.method {
                    methodFailed = true
                    failed += 1
                    distance += 5
                }
            case .absentQuery, .absentHeader:
                let hash = field == 0 ? fieldHashes.0 : fieldHashes.1
                let far = field == 0 ? fieldDistances.0 : fieldDistances.1
                field += 1
                if request.lacks(hash, header: term == .absentHeader) {
                    failed += 1
                    distance += far
                }
            }
        }
        return NearMissRanking.Score(
            pathMiss: 2, methodFailed: methodFailed, failedCount: failed, distance: distance, matchedCount: conditionCount - failed)
    }

    /// The most leading segments the uri can share with the request's path: exact up to
    /// `hashedSegments` (a hash collision only makes it larger, hence the bound lower).
    @inline(__always)
    private func sharedSegmentsAtMost(_ request: NearMissRequestFacts.Path) -> Int {
        let limit = min(Int(segmentCount), request.segmentCount)
        let hashed = min(limit, Self.hashedSegments)
        var common = 0
        while common < hashed {
            let mine: UInt64
            let theirs: UInt64
            switch common {
            case 0: (mine, theirs) = (segmentHashes.0, request.segmentHashes.0)
            case 1: (mine, theirs) = (segmentHashes.1, request.segmentHashes.1)
            case 2: (mine, theirs) = (segmentHashes.2, request.segmentHashes.2)
            default: (mine, theirs) = (segmentHashes.3, request.segmentHashes.3)
            }
            if mine != theirs { return common }
            common += 1
        }
        return limit
    }
}

/// What the near-miss bounds need of a request, computed once per ranking.
struct NearMissRequestFacts {
    /// A path's segment count (as `NearMissRanking.sharedSegments` counts them) and the hash of
    /// its bytes up to the end of each of its first segments: two paths share their first k
    /// segments exactly when their k-th hashes are equal (barring a collision).
    struct Path {
        var segmentCount = 0
        var segmentHashes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

        mutating func measure(_ path: String) {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            var inSegment = false
            func record() {
                switch segmentCount {
                case 1: segmentHashes.0 = hash
                case 2: segmentHashes.1 = hash
                case 3: segmentHashes.2 = hash
                case 4: segmentHashes.3 = hash
                default: break
                }
            }
            for byte in path.utf8 {
                if byte == UInt8(ascii: "/") {
                    if inSegment { record() }
                    inSegment = false
                } else if !inSegment {
                    inSegment = true
                    segmentCount += 1
                }
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            if inSegment { record() }
        }
    }

    let method: String
    var path = Path()
    /// Hashes of the query parameter names the request has; nil when one is not ASCII (query
    /// names compare by Unicode equivalence, so a hash of bytes cannot prove one absent).
    var queryNames: [UInt64]?
    /// Hashes of its header names, lower-cased as `HTTPHeaders.sameName` compares them.
    var headerNames: [UInt64] = []

    init(_ view: RequestView) {
        method = view.method
        path.measure(view.path)
        var queries: [UInt64]? = []
        for (name, _) in view.queries.pairs {
            guard name.utf8.allSatisfy({ $0 < 0x80 }) else { queries = nil; break }
            queries!.append(Self.queryNameHash(name))
        }
        queryNames = queries
        for field in view.request.headers { headerNames.append(Self.headerNameHash(field.name)) }
    }

    /// The request surely has no field with that name hash.
    @inline(__always)
    func lacks(_ hash: UInt64, header: Bool) -> Bool {
        guard let names = header ? headerNames : queryNames else { return false }
        for name in names where name == hash { return false }
        return true
    }

    static func queryNameHash(_ name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// Header names compare ASCII-case-insensitively (`HTTPHeaders.sameName`).
    static func headerNameHash(_ name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            let lower = (byte >= 65 && byte <= 90) ? byte | 0x20 : byte
            hash = (hash ^ UInt64(lower)) &* 0x100_0000_01b3
        }
        return hash
    }
}

/// The stubs of one router, in the order they are tried, for the prefiltered ranking.
protocol NearMissPool {
    /// Positions run from 0 to `count - 1` in the order the stubs are tried.
    var count: Int { get }
    /// The stub at a position; nil for a removed added stub's place.
    func stub(at position: Int) -> CompiledStub?
    func hint(at position: Int) -> NearMissHint
    /// The positions the route index offers for the request's path (whatever the method), ascending.
    var offered: [Int] { get }
}

extension NearMissRanking {
    /// One router's stubs for the prefiltered ranking: the stubs, their hints, and the
    /// positions the route index offers for the request's path (whatever the method).
    struct Pool: NearMissPool {
        let stubs: [CompiledStub]
        let hints: [NearMissHint]
        let offered: [Int]

        var count: Int { stubs.count }
        @inline(__always) func stub(at position: Int) -> CompiledStub? { stubs[position] }
        @inline(__always) func hint(at position: Int) -> NearMissHint { hints[position] }
    }

    /// The same answer as `closest(_:among:then:count:)` over the pools' stubs, without
    /// evaluating most of them: only the offered stubs can have a path that holds, so they are
    /// ranked first; only when fewer than `count` of them have a holding (or no) path are the
    /// others looked at, in order, each skipped when its lower bound cannot make the list.
    static func closest<First: NearMissPool, Second: NearMissPool>(
        _ view: RequestView, pools first: First, _ second: Second?, count: Int
    ) -> [(stub: CompiledStub, failed: [RequestCondition])] {
        guard count > 0 else { return [] }
        var best: [(score: Score, stub: CompiledStub, ordinal: Int)] = []
        best.reserveCapacity(min(count, 8) + 1)
        func insert(_ score: Score, _ stub: CompiledStub, _ ordinal: Int) {
            // After every equal score: the stub tried first wins a tie.
            var position = best.count
            while position > 0 && score < best[position - 1].score { position -= 1 }
            best.insert((score, stub, ordinal), at: position)
            if best.count > count { best.removeLast() }
        }
        func rankOffered<Pool: NearMissPool>(_ pool: Pool, base: Int) {
            for position in pool.offered {
                guard let stub = pool.stub(at: position), !stub.conditions.isEmpty else { continue }
                let bound = best.count == count ? best[count - 1].score : nil
                guard let score = score(stub.conditions, view, betterThan: bound), score.pathMiss < 2 else { continue }
                insert(score, stub, base + position)
            }
        }
        rankOffered(first, base: 0)
        if let second { rankOffered(second, base: first.count) }
        if best.count < count {
            // Every stub whose path holds (or that has none) is in `best` (no bound applied):
            // the rest fail their path; rank them in order as the full scan would.
            let ranked = Set(best.map(\.ordinal))
            let facts = NearMissRequestFacts(view)
            func rankRest<Pool: NearMissPool>(_ pool: Pool, base: Int) {
                let offered = pool.offered
                var next = 0
                for position in 0..<pool.count {
                    // Cheapest tests first: this loop sees every stub of 100,000.
                    while next < offered.count && offered[next] < position { next += 1 }
                    let isOffered = next < offered.count && offered[next] == position
                    let bound = best.count == count ? best[count - 1].score : nil
                    let hint = pool.hint(at: position)
                    if let bound, !isOffered,
                        let lowest = hint.bestScoreWithFailedPath(facts),
                        !(lowest < bound)
                    {
                        continue
                    }
                    if hint.conditionCount == 0 || (!ranked.isEmpty && ranked.contains(base + position)) { continue }
                    guard let stub = pool.stub(at: position), let score = score(stub.conditions, view, betterThan: bound) else { continue }
                    insert(score, stub, base + position)
                }
            }
            rankRest(first, base: 0)
            if let second { rankRest(second, base: first.count) }
        }
        return best.map { ($0.stub, score($0.stub.conditions, view).failed) }
    }
}
