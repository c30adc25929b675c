/// Finds candidate stubs for a request without scanning all of them, while keeping moco's
/// "first match in config order" exactly.
///
/// Stubs whose `uri` is an exact path go into a bucket for that path (and, when their method
/// is exact too, a sub-bucket for the method); every other stub goes into an ordered fallback
/// list (also split by exact method). A stub in the bucket for path P can only match requests
/// whose decoded path is P, so for a request we merge, by config position, the lists that could
/// match it: bucket[path][method], bucket[path][any], fallback[method], fallback[any]. Every
/// stub skipped would have failed its own uri or method condition, so the first match is the
/// one a linear scan finds.
struct RouteIndex: Sendable {
    struct Lists: Sendable {
        var byMethod: [String: [Int]] = [:]
        var anyMethod: [Int] = []

        mutating func add(_ position: Int, method: String?) {
            if let method { byMethod[method, default: []].append(position) } else { anyMethod.append(position) }
        }
    }

    private(set) var byPath: [String: Lists] = [:]
    private(set) var fallback = Lists()

    /// `stubs` in config order; catch-alls are not indexed.
    init(_ stubs: [CompiledStub]) {
        for (position, stub) in stubs.enumerated() where !stub.isCatchAll {
            if let path = stub.literalPath {
                byPath[path, default: Lists()].add(position, method: stub.literalMethod)
            } else {
                fallback.add(position, method: stub.literalMethod)
            }
        }
    }

    /// Candidate positions for a request, in increasing (config) order.
    @inline(__always)
    func candidates(path: String, method: String) -> CandidateSequence {
        let bucket = byPath[path]
        return CandidateSequence(
            bucket?.byMethod[method] ?? [], bucket?.anyMethod ?? [],
            fallback.byMethod[method] ?? [], fallback.anyMethod)
    }
}

/// A merge of four sorted position lists, smallest first.
struct CandidateSequence: Sequence, IteratorProtocol {
    private let a: [Int], b: [Int], c: [Int], d: [Int]
    private var i = 0, j = 0, k = 0, l = 0

    init(_ a: [Int], _ b: [Int], _ c: [Int], _ d: [Int]) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
    }

    mutating func next() -> Int? {
        var best = Int.max
        var which = -1
        if i < a.count, a[i] < best { best = a[i]; which = 0 }
        if j < b.count, b[j] < best { best = b[j]; which = 1 }
        if k < c.count, c[k] < best { best = c[k]; which = 2 }
        if l < d.count, d[l] < best { best = d[l]; which = 3 }
        switch which {
        case 0: i += 1
        case 1: j += 1
        case 2: k += 1
        case 3: l += 1
        default: return nil
        }
        return best
    }
}
