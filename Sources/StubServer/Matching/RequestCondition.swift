/// One compiled condition of a stub's request pattern. A stub matches when all of its
/// conditions hold; they are ordered cheapest first so most misses cost a string compare.
final class RequestCondition: Sendable {
    enum Test: Sendable {
        case uri(TextPredicate)
        /// Added by a settings `context`: the path is the context or below it.
        case uriWithin(String)
        case method(TextPredicate)
        case version(TextPredicate)
        case header(String, TextPredicate)
        case query(String, TextPredicate)
        case cookie(String, TextPredicate)
        case form(String, TextPredicate)
        /// The body text; absent when the body is empty (so `exist` means "has a body").
        case text(TextPredicate)
        case bodyBytes([UInt8])
        /// A request `file` that could not be found at load time: never holds (moco answers
        /// 400 when such a session is tried; a warning named the file at load).
        case missingBodyFile(String)
        case bodyJSON(JSONValue)
        case bodyXML(XMLElementNode)
        case jsonPath(JSONPath, TextPredicate)
        case structureJSON(JSONValue)
        case structureXML(XMLElementNode)
        case xpath(XPathExpression, TextPredicate)
        /// A `mount` has a file for the path.
        case mountedFile(MountPoint)
        /// A stateful scenario is in this state (read from the server's shared states).
        case scenario(ScenarioStates, name: String, state: String)
    }

    /// What was expected, kept in a form that is put in words only for a near-miss report
    /// (10,000 stubs load without writing 30,000 descriptions).
    enum Expectation: Sendable {
        case text(String)
        /// The matcher's own description.
        case matcher(TextMatcher)
        /// `prefix` followed by the value as compact JSON, clipped.
        case json(prefix: String, JSONValue)

        var description: String {
            switch self {
            case .text(let text): text
            case .matcher(let matcher): matcher.description
            case .json(let prefix, let value): prefix + clip(value.compactText)
            }
        }
    }

    let test: Test
    /// Where the condition came from, for near-miss reports: `uri`, `headers.X-Token`, …
    let label: String
    private let expected: Expectation

    /// The common tests, unpacked once so that `matches` reads plain stored properties of
    /// this (shared, immutable) object instead of copying enum payloads per request.
    private enum Kind: UInt8, Sendable {
        case uri, uriWithin, method, version, header, query, cookie, form, other
    }

    private let kind: Kind
    /// The header, query, cookie or form name; the context for `uriWithin`.
    private let name: String
    private let predicate: TextPredicate

    /// What was expected, in words: `equal to "/a"`, `matching "\d+"`.
    var expectation: String { expected.description }

    init(test: Test, label: String, expectation: Expectation) {
        self.test = test
        self.label = label
        self.expected = expectation
        switch test {
        case .uri(let predicate): (kind, name, self.predicate) = (.uri, "", predicate)
        case .uriWithin(let context): (kind, name, predicate) = (.uriWithin, context, .exist(true))
        case .method(let predicate): (kind, name, self.predicate) = (.method, "", predicate)
        case .version(let predicate): (kind, name, self.predicate) = (.version, "", predicate)
        case .header(let header, let predicate): (kind, name, self.predicate) = (.header, header, predicate)
        case .query(let query, let predicate): (kind, name, self.predicate) = (.query, query, predicate)
        case .cookie(let cookie, let predicate): (kind, name, self.predicate) = (.cookie, cookie, predicate)
        case .form(let form, let predicate): (kind, name, self.predicate) = (.form, form, predicate)
        default: (kind, name, predicate) = (.other, "", .exist(true))
        }
    }

    /// What part of a request the condition is about, for near-miss ranking: the path weighs
    /// more than the method, which weighs more than everything else.
    enum Aspect: UInt8, Sendable { case path, method, other }

    var aspect: Aspect {
        switch kind {
        case .uri, .uriWithin: .path
        case .method: .method
        case .other: if case .mountedFile = test { .path } else { .other }
        default: .other
        }
    }

    /// Relative cost of evaluating the condition, to order the checks made after the route
    /// index (`cost` orders reports and must stay as it is): a regex or template match costs
    /// more than comparing a header.
    var evaluationCost: Int {
        switch test {
        case .uri(.regex), .uri(.path): 7
        default: cost
        }
    }

    /// Relative cost, to order evaluation (path and method first, bodies last).
    var cost: Int {
        switch test {
        case .method: 0
        case .uri(.equal), .uriWithin: 1
        case .version: 2
        case .uri: 3
        case .header: 4
        case .query: 5
        case .cookie: 6
        case .form: 8
        case .text, .bodyBytes, .missingBodyFile: 9
        case .bodyJSON, .jsonPath, .structureJSON: 10
        case .bodyXML, .structureXML, .xpath: 11
        case .mountedFile: 12
        case .scenario: 12
        }
    }

    /// Whether a CORS preflight for the request can be checked against this condition: it carries
    /// the URI, query and version, but none of the request's own headers, cookies or body.
    var appliesToPreflight: Bool {
        switch test {
        case .uri, .uriWithin, .method, .version, .query, .mountedFile, .scenario: true
        case .header, .cookie, .form, .text, .bodyBytes, .missingBodyFile, .bodyJSON, .bodyXML, .jsonPath, .structureJSON, .structureXML,
            .xpath:
            false
        }
    }

    func matches(_ view: RequestView) -> Bool {
        switch kind {
        case .uri: return predicate.matches(view.path)
        case .uriWithin: return Self.isWithin(view.path, context: name)
        case .method: return predicate.matches(view.method)
        case .version: return predicate.matches(view.request.version.description)
        case .header: return predicate.matchesAny(headerNamed: name, in: view.request.headers)
        case .query: return predicate.matchesAny(named: name, in: view.queries)
        case .cookie: return predicate.matchesAny(named: name, in: view.cookies)
        case .form: return predicate.matchesAny(named: name, in: view.forms)
        case .other: return matchesBody(view)
        }
    }

    private func matchesBody(_ view: RequestView) -> Bool {
        switch test {
        case .uri, .uriWithin, .method, .version, .header, .query, .cookie, .form:
            return false // handled by `matches`
        case .scenario(let states, let name, let state): return states.state(of: name) == state
        case .text(let predicate): return predicate.matches(view.request.body.isEmpty ? nil : view.bodyText)
        case .bodyBytes(let expected): return view.request.body == expected
        case .missingBodyFile: return false
        case .bodyJSON(let expected): return view.jsonValue == expected
        case .bodyXML(let expected):
            guard let actual = XMLSupport.document(for: view) else { return false }
            return actual.isEquivalent(to: expected)
        case .jsonPath(let path, let predicate):
            guard let json = view.jsonValue else { return false }
            let results = path.evaluate(json)
            if case .exist(let flag) = predicate { return results.isEmpty != flag }
            return results.contains { predicate.matches($0.scalarText) }
        case .structureJSON(let expected):
            guard let json = view.jsonValue else { return false }
            return JSONStructure.matches(json, shape: expected)
        case .structureXML(let expected):
            guard let actual = XMLSupport.document(for: view) else { return false }
            return actual.hasSameStructure(as: expected)
        case .xpath(let expression, let predicate):
            guard let document = XMLSupport.document(for: view) else { return false }
            let values = expression.evaluate(document)
            if case .exist(let flag) = predicate { return values.isEmpty != flag }
            return values.contains { predicate.matches($0) }
        case .mountedFile(let mount):
            return mount.serves(view.path)
        }
    }

    static func isWithin(_ path: String, context: String) -> Bool {
        path == context || path.hasPrefix(context.hasSuffix("/") ? context : context + "/")
    }

    /// What the request had, in words, for the near-miss report.
    func actual(_ view: RequestView) -> String {
        func list(_ values: [String]?) -> String {
            guard let values, !values.isEmpty else { return "nothing" }
            return values.map { quoted($0) }.joined(separator: ", ")
        }
        switch test {
        case .uri, .uriWithin: return quoted(view.path)
        case .method: return quoted(view.request.method)
        case .version: return quoted(view.request.version.description)
        case .header(let name, _): return list(view.request.headers.values(for: name))
        case .query(let name, _): return list(view.queries[name])
        case .cookie(let name, _): return list(view.cookies[name])
        case .form(let name, _): return list(view.forms[name])
        case .text, .bodyBytes, .missingBodyFile:
            return view.request.body.isEmpty ? "an empty body" : quoted(view.bodyText)
        case .bodyJSON, .structureJSON:
            switch view.json {
            case .success(let value): return clip(value.compactText)
            case .failure(let error):
                return view.request.body.isEmpty ? "an empty body" : "a body that is not JSON (\(error.message) at \(error.position))"
            }
        case .jsonPath(let path, _):
            guard let json = view.jsonValue else {
                return view.request.body.isEmpty ? "an empty body" : "a body that is not JSON"
            }
            let results = path.evaluate(json)
            return results.isEmpty ? "nothing at that path" : results.map { quoted($0.scalarText) }.joined(separator: ", ")
        case .bodyXML, .structureXML:
            guard XMLSupport.document(for: view) != nil else {
                return view.request.body.isEmpty ? "an empty body" : "a body that is not XML"
            }
            return quoted(view.bodyText)
        case .xpath(let expression, _):
            guard let document = XMLSupport.document(for: view) else {
                return view.request.body.isEmpty ? "an empty body" : "a body that is not XML"
            }
            return list(expression.evaluate(document))
        case .mountedFile(let mount):
            guard let relative = mount.relativePath(view.path) else {
                return "\(quoted(view.path)), not a servable path below \(quoted(mount.prefix))"
            }
            return "no file \(quoted(relative)) in \(quoted(mount.root))"
        case .scenario(let states, let name, _): return "state " + quoted(states.state(of: name))
        }
    }
}
