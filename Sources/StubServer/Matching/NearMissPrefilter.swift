/// What the near-miss ranking can tell about a stub without evaluating a condition: enough
/// for a lower bound on its score when its path is known to fail. Computed once per router.
struct NearMissHint: Sendable {
    enum PathShape: UInt8, Sendable {
        /// No path condition: the route index always offers the stub.
        case none
        /// One path condition, an `equal` uri: its distance depends on the leading segment.
        case singleEqual
        /// One path condition of another kind: a failure is 1 off.
        case singleOther
        /// Several path conditions: at least one fails, at least 0.3 off.
        case several
    }

    var conditionCount: Int
    /// The method an `equal` method condition wants (it fails for any other).
    var method: String?
    var pathShape: PathShape
    /// `leadingSegmentHash` of the `equal` uri (`.singleEqual` only).
    var leadingSegment: UInt64 = 0

    /// The place of a removed stub: no conditions, never ranked.
    static let removed = NearMissHint()

    private init() {
        conditionCount = 0
        pathShape = .none
    }

    init(_ stub: CompiledStub) {
        conditionCount = stub.conditions.count
        var pathConditions = 0
        var shape = PathShape.none
        for condition in stub.conditions {
            switch condition.test {
            case .method(.equal(let expected)): method = expected
            case .uri(.equal(let expected)):
                shape = .singleEqual
                leadingSegment = Self.leadingSegmentHash(expected)
            default: break
            }
            if condition.aspect == .path {
                pathConditions += 1
                if case .uri(.equal) = condition.test {} else { shape = .singleOther }
            }
        }
        pathShape = pathConditions == 0 ? .none : (pathConditions == 1 ? shape : .several)
    }

    /// A hash of the path up to the end of its first segment (leading slashes included). Two
    /// paths whose hashes differ share no leading segment (`NearMissRanking.sharedSegments`
    /// counts a segment only when every byte before its end is equal).
    static func leadingSegmentHash(_ path: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var inSegment = false
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if inSegment { break }
            } else {
                inSegment = true
            }
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }

    /// The best score the stub can have when its path fails, or nil when that is unknown.
    /// Every term is one the full score adds (with the same arithmetic), so when the stub
    /// fails nothing more the two are equal and a stub whose bound cannot beat the list's
    /// last cannot either.
    @inline(__always)
    func bestScoreWithFailedPath(requestMethod: String, requestLeadingSegment: UInt64) -> NearMissRanking.Score? {
        let pathWeight = 8.0
        let path: Double
        switch pathShape {
        case .none: return nil
        case .singleEqual:
            path = pathWeight * (leadingSegment == requestLeadingSegment ? 0.3 : NearMissRanking.pathDistance(common: 0, longest: 1))
        case .singleOther: path = pathWeight * 1
        case .several: path = pathWeight * 0.3
        }
        let methodFailed = method.map { $0 != requestMethod } ?? false
        let failed = methodFailed ? 2 : 1
        return NearMissRanking.Score(
            pathMiss: 2, methodFailed: methodFailed, failedCount: failed, distance: methodFailed ? path + 5 : path,
            matchedCount: conditionCount - failed)
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
            let requestSegment = NearMissHint.leadingSegmentHash(view.path)
            let requestMethod = view.method
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
                       let lowest = hint.bestScoreWithFailedPath(requestMethod: requestMethod, requestLeadingSegment: requestSegment),
                       !(lowest < bound) {
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
