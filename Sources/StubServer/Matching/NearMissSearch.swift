/// The stubs of one router, in the order they are tried, for the prefiltered ranking.
protocol NearMissPool {
    /// Positions run from 0 to `count - 1` in the order the stubs are tried.
    var count: Int { get }
    /// The stub at a position; nil for a removed added stub's place.
    func stub(at position: Int) -> CompiledStub?
    /// The stubs arranged for best-first ranking, numbered as the pool's (`position(of:)`).
    var candidates: NearMissIndex { get }
    /// The positions the route index offers for the request's path (whatever the method), ascending.
    var offered: [Int] { get }
}

extension NearMissRanking {
    /// One router's stubs for the prefiltered ranking: the stubs, their near-miss index, and the
    /// positions the route index offers for the request's path (whatever the method).
    struct Pool: NearMissPool {
        let stubs: [CompiledStub]
        let candidates: NearMissIndex
        let offered: [Int]

        var count: Int { stubs.count }
        @inline(__always) func stub(at position: Int) -> CompiledStub? { stubs[position] }
    }

    /// The same answer as `closest(_:among:then:count:)` over the pools' stubs, without
    /// evaluating most of them: only the offered stubs can have a path that holds, so they are
    /// ranked first; only when fewer than `count` of them have a holding (or no) path are the
    /// others looked at, best lower bound first (`NearMissSearch`), until the next bound cannot
    /// make the list.
    static func closest<First: NearMissPool, Second: NearMissPool>(
        _ view: RequestView, pools first: First, _ second: Second?, count: Int
    ) -> [(stub: CompiledStub, failed: [RequestCondition])] {
        var scored = 0
        return closest(view, pools: first, second, count: count, scored: &scored)
    }

    /// The same, counting in `scored` the stubs of other paths it scored (what the tests
    /// bound: best-first, a few of 20,000; a scan scores them all).
    static func closest<First: NearMissPool, Second: NearMissPool>(
        _ view: RequestView, pools first: First, _ second: Second?, count: Int, scored: inout Int
    ) -> [(stub: CompiledStub, failed: [RequestCondition])] {
        guard count > 0 else { return [] }
        var best: [(score: Score, stub: CompiledStub, ordinal: Int)] = []
        best.reserveCapacity(min(count, 8) + 1)
        func insert(_ score: Score, _ stub: CompiledStub, _ ordinal: Int) {
            // Ties go to the stub tried first, whatever the order they are looked at in.
            var position = best.count
            while position > 0 && (score, ordinal) < (best[position - 1].score, best[position - 1].ordinal) { position -= 1 }
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
            // the rest fail their path; visit them best bound first, as far as one can make it.
            let ranked = best.map(\.ordinal)
            var search = NearMissSearch(NearMissRequestFacts(view))
            search.add(first.candidates, base: 0)
            if let second { search.add(second.candidates, base: first.count) }
            while true {
                let last = best.count == count ? (score: best[count - 1].score, ordinal: best[count - 1].ordinal) : nil
                guard let found = search.next(under: last) else { break }
                if ranked.contains(found.ordinal) { continue }
                scored += 1
                let stub = found.pool == 0 ? first.stub(at: found.position) : second?.stub(at: found.position)
                guard let stub,
                    let score = score(
                        stub.conditions, view, betterThan: last?.score, orEqual: last.map { found.ordinal < $0.ordinal } ?? false)
                else { continue }
                insert(score, stub, found.ordinal)
            }
        }
        return best.map { ($0.stub, score($0.stub.conditions, view).failed) }
    }
}

/// The best-first walk over the stubs of one or two `NearMissIndex`es for one unmatched request.
///
/// Each group (a shape's stubs at one level of the request's path, or all of a shape's stubs
/// when its bound does not depend on the path) has one lower bound and lists its stubs in the
/// order tried; a min-heap keyed by (bound, the position of the group's next stub) yields stubs
/// in the order of (their bound, their position). Once that key is not below the list's last
/// (score, position), no stub left can make the list: with 100,000 stubs of a few shapes, a
/// request visits a handful of groups and a few stubs.
struct NearMissSearch {
    typealias Score = NearMissRanking.Score

    struct Found {
        var pool: Int
        var position: Int
        /// The position among both pools' stubs.
        var ordinal: Int
    }

    private enum Source {
        /// Every stub of the shape.
        case shape(Int)
        case single(Int32)
        case list(Int)
    }

    private struct Group {
        var bound: Score
        var pool: Int
        /// The level of the request's path the group's stubs are at; -1: any.
        var level: Int
        var source: Source
        /// Steps taken through the source, in the order tried.
        var cursor = 0
    }

    private struct Key {
        var bound: Score
        var ordinal: Int
        var group: Int

        static func < (left: Key, right: Key) -> Bool { (left.bound, left.ordinal) < (right.bound, right.ordinal) }
    }

    private let facts: NearMissRequestFacts
    private var indexes: [NearMissIndex] = []
    private var bases: [Int] = []
    private var groups: [Group] = []
    private var heap: [Key] = []

    init(_ facts: NearMissRequestFacts) {
        self.facts = facts
    }

    /// Adds the groups of a router's stubs, whose positions follow `base` others.
    mutating func add(_ index: NearMissIndex, base: Int) {
        let pool = indexes.count
        indexes.append(index)
        bases.append(base)
        for (number, shape) in index.shapes.enumerated() where shape.live > 0 {
            let hint = shape.hint
            guard hint.pathShape == .singleEqual else {
                // Stubs without a path condition are ranked already; others have one bound.
                append(
                    Group(bound: hint.bestScoreWithFailedPath(facts, level: 0) ?? .lowest, pool: pool, level: -1, source: .shape(number)))
                continue
            }
            let deepest = hint.deepestLevel(facts.path)
            levels: for level in 0...deepest {
                var source = Source.shape(number)
                if level > 0 {
                    // A stub at a level has the request's hash at every level above: no node, no deeper stub.
                    switch index.members(shape: number, depth: level, hash: facts.path.segmentHash(level)) {
                    case .none: break levels
                    case .single(let stub): source = .single(stub)
                    case .list(let list): source = .list(list)
                    }
                }
                append(Group(bound: hint.bestScoreWithFailedPath(facts, level: level)!, pool: pool, level: level, source: source))
            }
        }
        // Heapify.
        for slot in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(slot) }
    }

    private mutating func append(_ group: Group) {
        groups.append(group)
        guard let ordinal = ordinal(at: group) else { return }
        heap.append(Key(bound: group.bound, ordinal: ordinal, group: groups.count - 1))
    }

    /// The next stub in the order of (bound, position) whose pair is below `last`, or nil when
    /// none is left that could be.
    mutating func next(under last: (score: Score, ordinal: Int)?) -> Found? {
        while let top = heap.first {
            if let last, !((top.bound, top.ordinal) < last) { return nil }
            var group = groups[top.group]
            guard let number = member(at: &group) else {
                groups[top.group] = group
                removeTop()
                continue
            }
            let position = indexes[group.pool].position(of: number)
            let ordinal = bases[group.pool] + position
            if ordinal != top.ordinal {
                // Stubs were skipped: another group may come first now.
                groups[top.group] = group
                heap[0].ordinal = ordinal
                siftDown(0)
                continue
            }
            group.cursor += 1
            groups[top.group] = group
            if let following = self.ordinal(at: group) {
                heap[0].ordinal = following
                siftDown(0)
            } else {
                removeTop()
            }
            return Found(pool: group.pool, position: position, ordinal: ordinal)
        }
        return nil
    }

    /// The numbers of a group's source, in the order tried from `step`.
    @inline(__always)
    private func raw(_ group: Group, at step: Int) -> Int32? {
        let index = indexes[group.pool]
        switch group.source {
        case .single(let number):
            return step == 0 ? number : nil
        case .shape(let shape):
            let values = index.shapes[shape].members.values
            guard step < values.count else { return nil }
            return index.newestFirst ? values[values.count - 1 - step] : values[step]
        case .list(let list):
            let values = index.nodeLists[list].values
            guard step < values.count else { return nil }
            return index.newestFirst ? values[values.count - 1 - step] : values[step]
        }
    }

    /// The position (among both pools) of the number at the group's cursor, removed or not: no
    /// stub the group has left comes before it.
    private func ordinal(at group: Group) -> Int? {
        guard let value = raw(group, at: group.cursor) else { return nil }
        return bases[group.pool] + indexes[group.pool].position(of: value < 0 ? ~value : value)
    }

    /// Moves the cursor to the group's next live stub at its level; that stub's number.
    private func member(at group: inout Group) -> Int32? {
        let index = indexes[group.pool]
        while let value = raw(group, at: group.cursor) {
            if value >= 0, group.level < 0 || index.hints[Int(value)].level(facts.path) == group.level { return value }
            group.cursor += 1
        }
        return nil
    }

    // MARK: - Heap

    private mutating func removeTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var child = left
            if left + 1 < heap.count, heap[left + 1] < heap[left] { child = left + 1 }
            guard heap[child] < heap[parent] else { return }
            heap.swapAt(child, parent)
            parent = child
        }
    }
}
