/// A `RequestFilter` compiled with the stub matcher itself, so a journal query means exactly
/// what the same JSON means in a session's `"request"`.
struct CompiledFilter {
    let conditions: [RequestCondition]

    /// Throws a `ConfigError` (file `filter`, JSON path, line and column) for a malformed filter.
    init(_ filter: RequestFilter) throws {
        let bytes = Array(filter.mocoJSON.utf8)
        let root: JSONNode
        do throws(JSONSyntaxError) {
            root = try JSONParser.parse(bytes)
        } catch {
            throw ConfigError([
                ConfigDiagnostic(file: "filter", path: "", message: "malformed JSON: \(error.message)", position: error.position)
            ])
        }
        try self.init(matcher: root, bytes: bytes, file: "filter")
    }

    /// A request matcher object already parsed (the admin API's request bodies).
    init(matcher root: JSONNode, bytes: [UInt8], file: String) throws {
        var decoder = StubDecoder(file: file, bytes: bytes)
        let pattern = decoder.decodeRequestMatcher(root)
        guard decoder.diagnostics.isEmpty, let pattern else { throw ConfigError(decoder.diagnostics) }
        var problems: [StubCompileProblem] = []
        let stub = StubCompiler.compile(
            StubDefinition(request: pattern, response: .text("")), reference: StubReference(file: file, index: 0), problems: &problems)
        guard let stub, problems.isEmpty else {
            throw ConfigError(
                problems.map { problem in
                    let path = problem.path.hasPrefix(".request") ? String(problem.path.dropFirst(".request".count)) : problem.path
                    let offset = root.offset(atPath: path)
                    return ConfigDiagnostic(
                        file: file, path: path, message: problem.message,
                        position: offset.map { SourcePosition.locate(offset: $0, in: bytes) })
                })
        }
        conditions = stub.conditions
    }

    func matches(_ request: HTTPRequest) -> Bool {
        let view = RequestView(request)
        return conditions.allSatisfy { $0.matches(view) }
    }

    /// How many `entries` match, and the closest `limit` that do not, closest first.
    func report(_ entries: [JournalEntry], nearMisses limit: Int) -> ReceivedRequestsReport {
        var matched = 0
        var total = 0
        var misses: [(score: NearMissRanking.Score, order: Int, miss: RequestNearMiss)] = []
        for entry in entries where entry.rejection == nil {
            total += 1
            let view = RequestView(entry.request)
            let (score, failed) = NearMissRanking.score(conditions, view)
            if failed.isEmpty {
                matched += 1
            } else if limit > 0 {
                let miss = RequestNearMiss(
                    request: "\(entry.request.method) \(clip(entry.request.target, to: 200))", status: entry.status,
                    differences: NearMissRanking.differences(failed, view))
                misses.append((score, -entry.sequence, miss))
            }
        }
        // Closest first; among equals, the newest.
        misses.sort { ($0.score, $0.order) < ($1.score, $1.order) }
        return ReceivedRequestsReport(matchCount: matched, totalCount: total, nearMisses: misses.prefix(max(0, limit)).map(\.miss))
    }
}
