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
    func bestScoreWithFailedPath(_ request: NearMissRequestFacts) -> NearMissRanking.Score? {
        bestScoreWithFailedPath(request, level: level(request.path))
    }

    /// The same for a stub at `level` (`level(_:)`) of the request's path: every stub of one
    /// `Shape` at one level has this bound, whatever its path.
    func bestScoreWithFailedPath(_ request: NearMissRequestFacts, level: Int) -> NearMissRanking.Score? {
        let pathWeight = 8.0
        let path: Double
        switch pathShape {
        case .none: return nil
        case .singleEqual:
            path =
                pathWeight
                * NearMissRanking.pathDistance(
                    common: sharedSegments(atLevel: level, request.path), longest: max(Int(segmentCount), request.path.segmentCount))
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

    /// The deepest level a `.singleEqual` uri can reach on the request's path: the segments both
    /// have, at most `hashedSegments`.
    @inline(__always)
    func deepestLevel(_ request: NearMissRequestFacts.Path) -> Int {
        min(Int(segmentCount), request.segmentCount, Self.hashedSegments)
    }

    /// How many leading segment hashes of an `equal` uri equal the request path's, up to
    /// `deepestLevel` (a hash collision only makes it larger, hence the bound lower).
    @inline(__always)
    func level(_ request: NearMissRequestFacts.Path) -> Int {
        let deepest = deepestLevel(request)
        var level = 0
        while level < deepest {
            if segmentHash(level + 1) != request.segmentHash(level + 1) { return level }
            level += 1
        }
        return level
    }

    /// The most leading segments the uri can share with the request's path at `level`: the
    /// level itself, or every segment they could share once the hashed ones all agree.
    @inline(__always)
    private func sharedSegments(atLevel level: Int, _ request: NearMissRequestFacts.Path) -> Int {
        level < deepestLevel(request) ? level : min(Int(segmentCount), request.segmentCount)
    }

    /// The hash of the uri's bytes up to the end of its `depth`-th segment (1...4).
    @inline(__always)
    func segmentHash(_ depth: Int) -> UInt64 { NearMissRequestFacts.Path.hash(segmentHashes, depth: depth) }

    /// What the bound depends on besides the segment hashes: stubs of one shape have one bound
    /// per level of the request's path, so the near-miss index ranks them by group.
    struct Shape: Hashable, Sendable {
        var conditionCount: Int
        var method: String?
        var pathShape: UInt8
        var segmentCount: Int32
        var terms: UInt32
        var fieldHashes: [UInt64]
        var fieldDistances: [Double]
    }

    var shape: Shape {
        Shape(
            conditionCount: conditionCount, method: method, pathShape: pathShape.rawValue, segmentCount: segmentCount,
            terms: UInt32(terms.0.rawValue) | UInt32(terms.1.rawValue) << 4 | UInt32(terms.2.rawValue) << 8
                | UInt32(terms.3.rawValue) << 12 | UInt32(termCount) << 16,
            fieldHashes: [fieldHashes.0, fieldHashes.1], fieldDistances: [fieldDistances.0, fieldDistances.1])
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

        /// The hash up to the end of the `depth`-th segment (1...4).
        @inline(__always)
        func segmentHash(_ depth: Int) -> UInt64 { Self.hash(segmentHashes, depth: depth) }

        @inline(__always)
        static func hash(_ hashes: (UInt64, UInt64, UInt64, UInt64), depth: Int) -> UInt64 {
            switch depth {
            case 1: hashes.0
            case 2: hashes.1
            case 3: hashes.2
            default: hashes.3
            }
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
