/// "Did you mean …?" from edit distance, for unknown keys and names.
package enum Suggestion {
    /// `; did you mean "method"?` or "" when nothing is close enough.
    package static func didYouMean(_ word: String, among candidates: [String]) -> String {
        guard let best = closest(to: word, among: candidates) else { return "" }
        return "; did you mean \"\(best)\"?"
    }

    /// The closest candidate within a distance that scales with the word's length
    /// (1 for short words, up to 3), compared case-insensitively; nil if none.
    package static func closest(to word: String, among candidates: [String]) -> String? {
        let lowered = word.lowercased()
        let limit = max(1, min(3, lowered.count / 3))
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Optimal string alignment distance (Levenshtein plus adjacent transpositions).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a)
        let y = Array(b)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var previousPrevious = [Int](repeating: 0, count: y.count + 1)
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            swap(&previousPrevious, &previous)
            swap(&previous, &current)
        }
        return previous[y.count]
    }
}
