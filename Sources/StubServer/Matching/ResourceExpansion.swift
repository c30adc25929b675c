/// Turns a REST `resource` into ordinary sessions, in moco's dispatch order, so routing,
/// contexts, settings and near-miss reports treat them like any other session:
///
/// - `GET /items/1` → the first `get` entry with id `1` (or `*`) whose `request` holds;
///   `GET /items` → a `get` entry without id, else the JSON array of every id'd entry when all
///   of them answer only `json`; anything else under `GET` → `404`.
/// - `POST /items` → a `post` entry, else `400`; `POST /items/1` → `404`.
/// - `PUT`/`DELETE`/`PATCH /items/1` → an entry with that id, else `404`; `HEAD` like `GET`
///   without the aggregate.
/// - other methods on `/items` or `/items/1` → `400`.
/// - sub-resources answer `/items/{id}/parts…` with the same rules; any deeper unknown path
///   under the resource → `404` (moco: 400).
enum ResourceExpansion {
    static let restMethods = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH"]

    /// One piece of a resource's URI: literal text or one segment of any value (a `*` id).
    enum Piece {
        case literal(String)
        case anySegment
    }

    static func sessions(for definition: StubDefinition, problems: inout [StubCompileProblem]) -> [StubDefinition] {
        guard let resource = definition.resource else { return [definition] }
        var sessions: [StubDefinition] = []
        expand(resource, base: [], path: ".resource", template: definition, into: &sessions, problems: &problems)
        // Anything else below the top resource: moco fails with 400; an unknown path is a 404.
        let root = rootPieces(resource.name, base: [])
        sessions.append(
            fallback(
                template: definition, path: ".resource", uri: matcher(root + [.literal("/")], openEnded: true), methods: nil, status: 404))
        return sessions
    }

    private static func rootPieces(_ name: String, base: [Piece]) -> [Piece] {
        base + [.literal(name.hasPrefix("/") ? name : "/" + name)]
    }

    private static func expand(
        _ resource: ResourceDefinition, base: [Piece], path: String, template: StubDefinition, into sessions: inout [StubDefinition],
        problems: inout [StubCompileProblem]
    ) {
        let name = resource.name.trimmingASCIIWhitespace()
        guard !name.isEmpty, !name.dropFirst(name.hasPrefix("/") ? 1 : 0).contains("/") else {
            problems.append(StubCompileProblem(path: path + ".name", message: "expected a resource name without '/' such as \"items\""))
            return
        }
        let root = rootPieces(name, base: base)
        let collection = matcher(root, openEnded: false)
        let anySingle = matcher(root + [.literal("/"), .anySegment], openEnded: false)
        func single(_ id: String) -> TextMatcher {
            matcher(root + [.literal("/"), id == "*" ? .anySegment : .literal(id)], openEnded: false)
        }
        func add(_ entries: [ResourceEntry], method: String, key: String, withID: Bool?) {
            for (offset, entry) in entries.enumerated() {
                let entryPath = "\(path).\(key)[\(offset)]"
                if let id = entry.id?.trimmingASCIIWhitespace() {
                    guard withID != false else { continue }
                    if id.isEmpty || id.contains("/") {
                        problems.append(
                            StubCompileProblem(path: entryPath + ".id", message: "expected an id without '/' (or \"*\" for any)"))
                        continue
                    }
                    sessions.append(
                        session(template: template, path: entryPath, uri: single(id), method: method, entry: entry, problems: &problems))
                } else {
                    guard withID != true else { continue }
                    sessions.append(
                        session(template: template, path: entryPath, uri: collection, method: method, entry: entry, problems: &problems))
                }
            }
        }
        for (key, method, entries) in [
            ("put", "PUT", resource.put), ("delete", "DELETE", resource.delete), ("patch", "PATCH", resource.patch),
        ] {
            for (offset, entry) in entries.enumerated() where entry.id == nil {
                problems.append(StubCompileProblem(path: "\(path).\(key)[\(offset)]", message: "\(method) needs an \"id\" (\"*\" for any)"))
            }
        }
        for (offset, entry) in resource.post.enumerated() where entry.id != nil {
            problems.append(
                StubCompileProblem(path: "\(path).post[\(offset)].id", message: "POST goes to the collection; it takes no \"id\""))
        }

        // GET: single entries, then collection entries, then the aggregate, then 404.
        add(resource.get, method: "GET", key: "get", withID: true)
        add(resource.get, method: "GET", key: "get", withID: false)
        let singles = resource.get.filter { $0.id != nil }
        if !singles.isEmpty, singles.allSatisfy({ isOnlyJSON($0.response) }) {
            let values: [JSONValue] = singles.compactMap { entry in
                if case .json(let value)? = entry.response.body { return value }
                return nil
            }
            var aggregate = template
            aggregate.resource = nil
            aggregate.request = RequestPattern(method: .equal("GET"), uri: collection)
            aggregate.response = .json(.array(values))
            aggregate.sourcePath = path + ".get"
            sessions.append(aggregate)
        }
        sessions.append(fallback(template: template, path: path, uri: collection, methods: ["GET"], status: 404))
        sessions.append(fallback(template: template, path: path, uri: anySingle, methods: ["GET"], status: 404))

        add(resource.post, method: "POST", key: "post", withID: false)
        sessions.append(fallback(template: template, path: path, uri: collection, methods: ["POST"], status: 400))
        sessions.append(fallback(template: template, path: path, uri: anySingle, methods: ["POST"], status: 404))

        for (key, method, entries) in [
            ("put", "PUT", resource.put), ("delete", "DELETE", resource.delete), ("patch", "PATCH", resource.patch),
        ] {
            add(entries, method: method, key: key, withID: true)
        }
        add(resource.head, method: "HEAD", key: "head", withID: true)
        add(resource.head, method: "HEAD", key: "head", withID: false)
        for uri in [collection, anySingle] {
            sessions.append(fallback(template: template, path: path, uri: uri, methods: ["PUT", "DELETE", "PATCH", "HEAD"], status: 404))
            sessions.append(fallback(template: template, path: path, uri: uri, methods: nil, status: 400))
        }

        for (offset, sub) in resource.resources.enumerated() {
            let subPath = "\(path).resource[\(offset)]"
            guard let id = sub.id?.trimmingASCIIWhitespace(), !id.isEmpty, !id.contains("/") else {
                problems.append(StubCompileProblem(path: subPath, message: "a sub-resource needs the parent's \"id\" (\"*\" for any)"))
                continue
            }
            let parent = root + [.literal("/"), id == "*" ? .anySegment : .literal(id)]
            expand(sub, base: parent, path: subPath, template: template, into: &sessions, problems: &problems)
        }
    }

    /// moco aggregates only entries whose whole response is `json`.
    private static func isOnlyJSON(_ response: ResponseDefinition) -> Bool {
        guard case .json? = response.body else { return false }
        return response.status == nil && response.headers.isEmpty && response.cookies.isEmpty && response.version == nil
            && response.latency == nil && response.attachment == nil && response.sequence == nil && response.cors == nil
    }

    private static func session(
        template: StubDefinition, path: String, uri: TextMatcher, method: String, entry: ResourceEntry, problems: inout [StubCompileProblem]
    ) -> StubDefinition {
        var request = entry.request ?? RequestPattern()
        if request.uri != nil || request.method != nil {
            problems.append(
                StubCompileProblem(
                    path: path + ".request", message: "the resource sets the uri and method; remove them from the entry's request"))
        }
        request.uri = uri
        request.method = .equal(method)
        var session = template
        session.resource = nil
        session.request = request
        session.response = entry.response
        session.sourcePath = path
        return session
    }

    private static func fallback(template: StubDefinition, path: String, uri: TextMatcher, methods: [String]?, status: Int)
        -> StubDefinition
    {
        var session = template
        session.resource = nil
        var request = RequestPattern(uri: uri)
        if let methods {
            request.method = methods.count == 1 ? .equal(methods[0]) : .match(methods.joined(separator: "|"))
        }
        session.request = request
        session.response = ResponseDefinition(status: status)
        session.sourcePath = path
        session.description = session.description ?? "resource \(status)"
        return session
    }

    /// An exact uri when every piece is literal, otherwise a whole-path regex.
    private static func matcher(_ pieces: [Piece], openEnded: Bool) -> TextMatcher {
        var literal = ""
        var isLiteral = true
        for piece in pieces {
            if case .literal(let text) = piece { literal += text } else { isLiteral = false }
        }
        if isLiteral { return openEnded ? .startsWith(literal) : .equal(literal) }
        var regex = ""
        for piece in pieces {
            switch piece {
            case .literal(let text): regex += NSRegularExpressionEscaping.escape(text)
            case .anySegment: regex += "[^/]*"
            }
        }
        return .match(openEnded ? regex + ".*" : regex)
    }
}
