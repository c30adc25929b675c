/// Orders candidate stubs (or journal entries) by how close a request came to them. The path
/// dominates: a stub whose path condition holds beats one without a path condition, which
/// beats one whose path is wrong, however many query, header or body conditions each fails
/// (a newcomer's `curl` of the right path without its query is about that stub, not about a
/// stub of another path). The method comes next, then how many conditions failed, then how
/// far off each failure is (a value that is there but differs is closer than one that is
/// missing; paths sharing leading segments are closer). File order only breaks exact ties.
enum NearMissRanking {
    /// How many closest stubs a miss reports (the 400 page, the journal, the admin API).
    static let reportedCount = 3

    struct Score: Comparable {
        /// 0: a path condition holds; 1: the stub has no path condition; 2: the path is wrong.
        var pathMiss: UInt8
        var methodFailed: Bool
        var failedCount: Int
        var distance: Double
        var matchedCount: Int

        /// Below every score: the bound of a stub nothing is known about.
        static let lowest = Score(pathMiss: 0, methodFailed: false, failedCount: 0, distance: -.infinity, matchedCount: .max)

        static func < (left: Score, right: Score) -> Bool {
            if left.pathMiss != right.pathMiss { return left.pathMiss < right.pathMiss }
            if left.methodFailed != right.methodFailed { return !left.methodFailed }
            if left.failedCount != right.failedCount { return left.failedCount < right.failedCount }
            if left.distance != right.distance { return left.distance < right.distance }
            return left.matchedCount > right.matchedCount
        }
    }

    static func score(_ conditions: [RequestCondition], _ view: RequestView) -> (score: Score, failed: [RequestCondition]) {
        var failed: [RequestCondition] = []
        var hasPath = false
        var pathFailed = false
        var methodFailed = false
        var distance = 0.0
        for condition in conditions {
            let aspect = condition.aspect
            if aspect == .path { hasPath = true }
            guard !condition.matches(view) else { continue }
            failed.append(condition)
            if aspect == .path { pathFailed = true } else if aspect == .method { methodFailed = true }
            distance += weight(condition) * howFarOff(condition, view)
        }
        let pathMiss: UInt8 = pathFailed ? 2 : (hasPath ? 0 : 1)
        let score = Score(
            pathMiss: pathMiss, methodFailed: methodFailed, failedCount: failed.count, distance: distance,
            matchedCount: conditions.count - failed.count)
        return (score, failed)
    }

    /// The score, or nil as soon as it cannot be better than `bound` (or as good, `orEqual`:
    /// a stub tried before the list's last wins a tie): that stub cannot make the list.
    /// Allocation-free, and the path and method are looked at first: an unmatched request may
    /// rank many stubs, of 100,000 with a large admin-built configuration.
    static func score(_ conditions: [RequestCondition], _ view: RequestView, betterThan bound: Score?, orEqual: Bool = false) -> Score? {
        var hasPath = false
        var pathFailed = false
        for condition in conditions where condition.aspect == .path {
            hasPath = true
            if !condition.matches(view) { pathFailed = true; break }
        }
        let pathMiss: UInt8 = pathFailed ? 2 : (hasPath ? 0 : 1)
        if let bound, pathMiss > bound.pathMiss { return nil }
        var methodFailed = false
        for condition in conditions where condition.aspect == .method && !condition.matches(view) { methodFailed = true }
        if let bound, pathMiss == bound.pathMiss, methodFailed && !bound.methodFailed { return nil }
        let sameGroup = bound.map { pathMiss == $0.pathMiss && methodFailed == $0.methodFailed } ?? false
        var failedCount = 0
        var distance = 0.0
        for condition in conditions where !condition.matches(view) {
            failedCount += 1
            if sameGroup, failedCount > bound!.failedCount { return nil }
            distance += weight(condition) * howFarOff(condition, view)
        }
        let score = Score(
            pathMiss: pathMiss, methodFailed: methodFailed, failedCount: failedCount, distance: distance,
            matchedCount: conditions.count - failedCount)
        if let bound, orEqual ? bound < score : !(score < bound) { return nil }
        return score
    }

    /// The closest of `stubs` (ties: the one tried first).
    static func closest(_ view: RequestView, among stubs: [CompiledStub]) -> (stub: CompiledStub, failed: [RequestCondition])? {
        closest(view, among: stubs, then: [], count: 1).first
    }

    /// The `count` closest stubs of `first` followed by `second`, closest first (ties: the one
    /// tried first), each with the conditions it failed. One pass; a stub that cannot beat the
    /// current `count`-th is dropped after its path (and method) check.
    static func closest(
        _ view: RequestView, among first: [CompiledStub], then second: [CompiledStub], count: Int
    ) -> [(stub: CompiledStub, failed: [RequestCondition])] {
        guard count > 0 else { return [] }
        var best: [(score: Score, stub: CompiledStub)] = []
        best.reserveCapacity(min(count, 8) + 1)
        func consider(_ stubs: [CompiledStub]) {
            for stub in stubs where !stub.conditions.isEmpty {
                let bound = best.count == count ? best[count - 1].score : nil
                guard let score = score(stub.conditions, view, betterThan: bound) else { continue }
                // After every equal score: the stub tried first wins a tie.
                var position = best.count
                while position > 0 && score < best[position - 1].score { position -= 1 }
                best.insert((score, stub), at: position)
                if best.count > count { best.removeLast() }
            }
        }
        consider(first)
        consider(second)
        return best.map { ($0.stub, score($0.stub.conditions, view).failed) }
    }

    static func weight(_ condition: RequestCondition) -> Double {
        switch condition.test {
        case .uri, .uriWithin, .mountedFile: 8
        case .method: 5
        case .text, .bodyBytes, .missingBodyFile, .bodyJSON, .bodyXML, .structureJSON, .structureXML: 3
        case .header, .query, .cookie, .form, .jsonPath, .xpath: 2
        case .version, .scenario: 1
        }
    }

    /// In (0, 1]: how far the request is from satisfying a condition it fails.
    static func howFarOff(_ condition: RequestCondition, _ view: RequestView) -> Double {
        switch condition.test {
        case .uri(.equal(let expected)):
            // Paths sharing their leading segments are closer (`/api/v1/storis` vs `/api/v1/stories`).
            let (common, longest) = sharedSegments(expected, view.path)
            return pathDistance(common: common, longest: longest)
        case .header(_, let predicate), .query(_, let predicate), .cookie(_, let predicate), .form(_, let predicate):
            guard isAbsent(condition, view) else { return 0.5 }
            // Missing: a condition that any value satisfies is closer than one wanting a value.
            switch predicate {
            case .exist: return 0.6
            case .equal: return 1
            default: return 0.8
            }
        default:
            return 1
        }
    }

    /// How far off an `equal` uri is, from the segments it shares with the request's path.
    @inline(__always)
    static func pathDistance(common: Int, longest: Int) -> Double {
        0.3 + 0.7 * (1 - Double(common) / Double(max(longest, 1)))
    }

    /// How many leading `/` segments two paths share, and the larger segment count (by bytes,
    /// without splitting).
    static func sharedSegments(_ a: String, _ b: String) -> (common: Int, longest: Int) {
        func count(_ text: String) -> Int {
            var segments = 0
            var inSegment = false
            for byte in text.utf8 {
                if byte == UInt8(ascii: "/") { inSegment = false } else if !inSegment { inSegment = true; segments += 1 }
            }
            return segments
        }
        var common = 0
        var inSegment = false
        var left = a.utf8.makeIterator()
        var right = b.utf8.makeIterator()
        while true {
            let x = left.next()
            let y = right.next()
            if x == nil || y == nil {
                // Both ended at once, or one ended where the other's segment ends.
                let other = x ?? y
                if inSegment && (other == nil || other == UInt8(ascii: "/")) { common += 1 }
                break
            }
            guard x == y else { break }
            if x == UInt8(ascii: "/") {
                if inSegment { common += 1 }
                inSegment = false
            } else {
                inSegment = true
            }
        }
        return (common, max(count(a), count(b)))
    }

    /// The header, query parameter, cookie or form field the condition names is not there.
    static func isAbsent(_ condition: RequestCondition, _ view: RequestView) -> Bool {
        switch condition.test {
        case .header(let name, _): return view.request.headers.values(for: name).isEmpty
        case .query(let name, _): return view.queries[name]?.isEmpty ?? true
        case .cookie(let name, _): return view.cookies[name]?.isEmpty ?? true
        case .form(let name, _): return view.forms[name]?.isEmpty ?? true
        case .text, .bodyBytes, .bodyJSON, .bodyXML, .structureJSON, .structureXML, .jsonPath, .xpath:
            return view.request.body.isEmpty
        default: return false
        }
    }

    /// `queries.client_id missing`, `uri: got "/users/abc"`: a failed condition in a few words.
    static func brief(_ condition: RequestCondition, _ view: RequestView) -> String {
        if isAbsent(condition, view) { return "\(condition.label) missing" }
        return "\(condition.label): got \(clip(condition.actual(view), to: 40))"
    }

    /// `expected "secret", got "wrong"` per failed condition.
    static func differences(_ failed: [RequestCondition], _ view: RequestView) -> [String] {
        failed.map { "\($0.label): expected \($0.expectation), got \($0.actual(view))" }
    }
}

/// The stub an unmatched request came closest to, and what it failed: kept in the journal
/// entry, shown in the log line and the admin API.
public struct StubNearMiss: Sendable, CustomStringConvertible {
    public var stub: StubReference
    /// The stub's `description`, if any.
    public var summary: String?
    /// One line per failed condition: `forms.password: expected "secret", got "wrong"`.
    public var differences: [String]
    /// The same, in a few words each: `queries.client_id missing`.
    public var briefDifferences: [String]
    public var conditionCount: Int

    /// `closest: Stubs/stories_conf.json#0, queries.client_id missing`
    public var description: String {
        var shown = briefDifferences.prefix(3).joined(separator: ", ")
        if briefDifferences.count > 3 { shown += ", +\(briefDifferences.count - 3) more" }
        return "closest: \(stub)" + (shown.isEmpty ? "" : ", " + shown)
    }
}
