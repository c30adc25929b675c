/// A stub ready to serve: its conditions (cheapest first), the key the route index files it
/// under, and its response plan.
final class CompiledStub: Sendable {
    let reference: StubReference
    let summary: String?
    let conditions: [RequestCondition]
    /// The conditions the route index does not prove when it offers this stub (it proves an
    /// exact `uri` and a literal `method`).
    let residualConditions: ArraySlice<RequestCondition>
    let routeKey: RouteKey
    /// `residualConditions` as unretained references, read on the hot path without touching
    /// the reference counts that every event-loop thread would otherwise contend for (the
    /// `conditions` array keeps the objects alive).
    private let residualReferences: UnmanagedList<RequestCondition>
    let isCatchAll: Bool
    /// The `uri` `path` pattern whose captures templates read as `req.path.name`.
    let pathPattern: AntPathPattern?
    let plan: ResponsePlan
    /// The stateful scenario this stub takes part in, and where its states live.
    let scenario: StubScenario?
    let scenarioStates: ScenarioStates?

    init(
        reference: StubReference, summary: String?, conditions: [RequestCondition], isCatchAll: Bool,
        pathPattern: AntPathPattern?, plan: ResponsePlan, scenario: StubScenario? = nil, scenarioStates: ScenarioStates? = nil
    ) {
        self.scenario = scenario
        self.scenarioStates = scenarioStates
        self.reference = reference
        self.summary = summary
        // Stable insertion sort (a stub has a handful of conditions): equal costs keep the
        // order they were written in.
        var sorted = conditions
        if !conditions.indices.dropFirst().allSatisfy({ conditions[$0 - 1].cost <= conditions[$0].cost }) {
            for index in 1..<sorted.count {
                let condition = sorted[index]
                let cost = condition.cost
                var slot = index
                while slot > 0, sorted[slot - 1].cost > cost {
                    sorted[slot] = sorted[slot - 1]
                    slot -= 1
                }
                sorted[slot] = condition
            }
        }
        self.conditions = sorted
        let key = isCatchAll ? RouteKey.unkeyed : RouteKey(conditions: sorted)
        routeKey = key
        // The implied conditions are the cheapest, so usually the first ones: then the rest is
        // a slice of the same storage.
        var leading = 0
        while leading < sorted.count, key.implies(leading) { leading += 1 }
        if sorted[leading...].indices.contains(where: key.implies) {
            residualConditions = ArraySlice(sorted.indices.filter { !key.implies($0) }.map { sorted[$0] })
        } else {
            residualConditions = sorted[leading...]
        }
        // Evaluated cheapest first; which stub matches does not depend on the order.
        let residual = residualConditions
        if residual.indices.dropFirst().allSatisfy({ residual[$0 - 1].evaluationCost <= residual[$0].evaluationCost }) {
            residualReferences = UnmanagedList(residual)
        } else {
            residualReferences = UnmanagedList(residual.enumerated().sorted {
                ($0.element.evaluationCost, $0.offset) < ($1.element.evaluationCost, $1.offset)
            }.map(\.element))
        }
        self.isCatchAll = isCatchAll
        self.pathPattern = pathPattern
        self.plan = plan
    }

    deinit { residualReferences.free() }

    /// Every condition holds (what a top-to-bottom scan asks).
    @inline(__always)
    func matches(_ view: RequestView) -> Bool {
        for condition in conditions where !condition.matches(view) { return false }
        return true
    }

    /// The conditions the route index left to check hold.
    @inline(__always)
    func matchesResidual(_ view: RequestView) -> Bool {
        for condition in residualReferences.buffer where !condition._withUnsafeGuaranteedRef({ $0.matches(view) }) { return false }
        return true
    }

    /// The stub's `cors` policy when it would serve the method `preflight` asks about at the
    /// preflight's URI (conditions a preflight cannot carry, such as headers and body, are left out).
    func corsPolicy(answering preflight: CORSPreflight, _ view: RequestView) -> CORSPolicy? {
        guard let policy = plan.corsPolicy else { return nil }
        for condition in conditions where condition.appliesToPreflight {
            if case .method(let predicate) = condition.test {
                if !predicate.matches(preflight.requestedMethod) { return nil }
            } else if !condition.matches(view) {
                return nil
            }
        }
        return policy
    }

    func reply(_ view: RequestView) -> HTTPReply {
        if let scenario, let next = scenario.next, let scenarioStates {
            scenarioStates.transition(scenario.name, from: scenario.requires, to: next)
        }
        return plan.reply(TemplateContext(view: view, pathVariables: pathPattern.flatMap { $0.match(view.path) }))
    }
}

/// Unretained references to objects that something else keeps alive, in a buffer read
/// without reference counting (immutable once made; the owner calls `free` in its `deinit`).
struct UnmanagedList<Object: AnyObject>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Unmanaged<Object>>

    init(_ objects: some Collection<Object>) {
        buffer = .allocate(capacity: objects.count)
        _ = buffer.initialize(from: objects.lazy.map { Unmanaged.passUnretained($0) })
    }

    func free() { buffer.deallocate() }
}

/// Compiles `StubDefinition`s: request patterns into conditions (applying the settings
/// `context` and `request`), responses into plans.
enum StubCompiler {
    static func compile(
        _ definition: StubDefinition, reference: StubReference, runtime: StubRuntime = StubRuntime(), problems: inout [StubCompileProblem],
        scenarios: ScenarioStates? = nil
    ) -> CompiledStub? {
        let before = problems.count
        var conditions: [RequestCondition] = []
        let scope = definition.scope
        let context = normalizedContext(scope.context)
        var pathPattern: AntPathPattern?
        var mountPoint: MountPoint?

        for (offset, pattern) in scope.requests.enumerated() {
            conditions += compileRequest(
                pattern, context: "", path: "(settings request \(offset + 1))", labelPrefix: "settings ", scope: scope,
                problems: &problems, pathPattern: nil)
        }
        // Large optional values are read through `map` (borrowed), not bound or compared with
        // nil: each of those copies and destroys every field.
        let hasRequest = definition.request.map { _ in true } ?? false
        let hasResponse = definition.response.map { _ in true } ?? false
        if hasRequest {
            var capture: AntPathPattern?
            let (own, hasURI) = definition.request.map { request in
                (compileRequest(
                    request, context: context, path: ".request", labelPrefix: "", scope: scope, problems: &problems,
                    pathPattern: &capture), request.uri != nil)
            }!
            if conditions.isEmpty { conditions = own } else { conditions += own }
            pathPattern = capture
            if !hasURI, !context.isEmpty {
                conditions.append(RequestCondition(test: .uriWithin(context), label: "uri", expectation: .text("under the context \(quoted(context))")))
            }
        } else if let mount = definition.mount {
            if let point = compileMount(mount, context: context, scope: scope, problems: &problems) {
                if let prefix = try? TextPredicate.compile(.startsWith(point.prefix), caseInsensitive: false) {
                    conditions.append(RequestCondition(test: .uri(prefix), label: "uri", expectation: .matcher(.startsWith(point.prefix))))
                }
                conditions.append(RequestCondition(test: .mountedFile(point), label: "mount", expectation: .text("a file in \(quoted(mount.dir))")))
                mountPoint = point
            }
        } else if !context.isEmpty {
            conditions.append(RequestCondition(test: .uriWithin(context), label: "uri", expectation: .text("under the context \(quoted(context))")))
        }

        var steps: [ResponseStep] = []
        for (offset, response) in scope.responses.enumerated() {
            steps += ResponseCompiler.steps(for: response, path: "(settings response \(offset + 1))", scope: scope, problems: &problems)
        }
        if let mountPoint {
            if definition.response.map({ $0.body != nil || $0.attachment != nil }) ?? false {
                problems.append(StubCompileProblem(path: ".mount", message: "a mount serves its files as the body; remove text, file, json or attachment"))
            }
            steps.append(.body(.mount(mountPoint)))
        }
        if let own = definition.response.map({ ResponseCompiler.steps(for: $0, path: ".response", scope: scope, problems: &problems) }) {
            if steps.isEmpty { steps = own } else { steps += own }
        }
        if let location = definition.redirectTo {
            if !hasRequest {
                problems.append(StubCompileProblem(path: ".redirectTo", message: "redirectTo needs a request to match"))
            }
            steps.append(.status(302))
            if let plan = ResponseCompiler.textPlan(location, path: ".redirectTo", problems: &problems) {
                if case .literal(let text) = plan, let problem = HeaderValueCheck.problem(in: text) {
                    problems.append(StubCompileProblem(path: ".redirectTo", message: HeaderValueCheck.valueMessage(problem)))
                }
                steps.append(.header("Location", plan))
            }
        }
        if !hasResponse && definition.redirectTo == nil {
            problems.append(StubCompileProblem(path: "", message: "a session needs a response (or a request with redirectTo)"))
        }
        let live = UpstreamCompiler.compile(definition, reference: reference, runtime: runtime, problems: &problems)
        let states = scenarios ?? ScenarioStates()
        if let scenario = definition.scenario, let required = scenario.requires {
            conditions.append(RequestCondition(
                test: .scenario(states, name: scenario.name, state: required), label: "scenario \(quoted(scenario.name))",
                expectation: .text("state \(quoted(required))")))
        }
        guard problems.count == before else { return nil }
        return CompiledStub(
            reference: reference, summary: definition.description, conditions: conditions,
            isCatchAll: !hasRequest && mountPoint == nil && definition.resource == nil, pathPattern: pathPattern,
            plan: ResponsePlan(steps: steps, owner: reference, source: live.source, event: live.event),
            scenario: definition.scenario, scenarioStates: states)
    }

    /// A mount's prefix (with the context) and directory: relative names try the working
    /// directory first (moco), then the configuration's directory or `file_root`.
    static func compileMount(_ mount: MountDefinition, context: String, scope: StubScope, problems: inout [StubCompileProblem]) -> MountPoint? {
        let before = problems.count
        var uri = mount.uri.trimmingASCIIWhitespace()
        if uri.isEmpty { uri = "/" }
        if !uri.hasPrefix("/") { uri = "/" + uri }
        while uri.count > 1, uri.hasSuffix("/") { uri.removeLast() }
        let prefix = join(context, uri == "/" ? "" : uri) + "/"
        func globs(_ list: [String], _ key: String) -> [GlobPattern] {
            list.enumerated().compactMap { offset, text in
                do throws(GlobPattern.SyntaxError) {
                    return try GlobPattern(text)
                } catch {
                    problems.append(StubCompileProblem(path: ".mount.\(key)[\(offset)]", message: error.description))
                    return nil
                }
            }
        }
        let includes = globs(mount.includes, "includes")
        let excludes = globs(mount.excludes, "excludes")
        let dir = mount.dir.trimmingASCIIWhitespace()
        if dir.isEmpty || dir.utf8.contains(0) {
            problems.append(StubCompileProblem(path: ".mount.dir", message: "expected a directory name"))
        }
        guard problems.count == before else { return nil }
        // A mount serves every file below its directory: `/` or `../../..` would serve the
        // whole machine (to any page, through DNS rebinding), so it must lie inside the roots.
        let directory: String
        let absolute = mountDirectory(dir, scope: scope)
        switch PathConfinement.resolve(absolute, relativeTo: "/", in: PathConfinement(scope: scope)) {
        case .success(let confined): directory = confined
        case .failure(let failure):
            let written = absolute == dir ? "" : " (\(quoted(dir)) as written)"
            problems.append(StubCompileProblem(path: ".mount.dir", message: failure.message + written))
            return nil
        }
        return MountPoint(prefix: prefix, root: directory, includes: includes, excludes: excludes)
    }

    static func mountDirectory(_ dir: String, scope: StubScope) -> String {
        func absolute(_ base: String) -> String {
            let joined = dir.hasPrefix("/") ? dir : base + "/" + dir
            return "/" + ConfinedFiles.normalizedComponents(joined).joined(separator: "/")
        }
        if let fallback = scope.fallbackRoot, LoadRun.isDirectory(absolute(fallback)) { return absolute(fallback) }
        return absolute(scope.fileRoot)
    }

    /// `/billing/` → `/billing`; `billing` → `/billing`; `/` and "" → "".
    static func normalizedContext(_ context: String) -> String {
        var text = context
        while text.hasSuffix("/") { text.removeLast() }
        if text.isEmpty { return "" }
        return text.hasPrefix("/") ? text : "/" + text
    }

    /// `context` + `uri`, joined with exactly one `/`.
    static func join(_ context: String, _ uri: String) -> String {
        guard !context.isEmpty else { return uri }
        if uri.isEmpty { return context }
        return uri.hasPrefix("/") ? context + uri : context + "/" + uri
    }

    private static func compileRequest(
        _ pattern: RequestPattern, context: String, path: String, labelPrefix: String, scope: StubScope,
        problems: inout [StubCompileProblem], pathPattern: inout AntPathPattern?
    ) -> [RequestCondition] {
        var conditions: [RequestCondition] = []
        func add(_ test: RequestCondition.Test, _ label: String, _ expectation: RequestCondition.Expectation) {
            conditions.append(RequestCondition(test: test, label: labelPrefix + label, expectation: expectation))
        }
        func predicate(_ matcher: TextMatcher, at subpath: String, caseInsensitive: Bool = false) -> TextPredicate? {
            if case .path = matcher, subpath != ".uri" {
                problems.append(StubCompileProblem(path: path + subpath, message: "the path operator applies to uri only"))
                return nil
            }
            do throws(TextPredicate.CompileError) {
                return try TextPredicate.compile(matcher, caseInsensitive: caseInsensitive)
            } catch {
                problems.append(StubCompileProblem(path: path + subpath, message: error.message))
                return nil
            }
        }

        if let uri = pattern.uri {
            let scoped: TextMatcher
            var needsWithin = false
            switch uri {
            case .equal(let text): scoped = .equal(join(context, text))
            case .startsWith(let text): scoped = .startsWith(join(context, text))
            case .path(let text): scoped = .path(join(context, text))
            case .match(let regex):
                if context.isEmpty {
                    scoped = uri
                } else {
                    var body = regex
                    if body.hasPrefix("^") { body.removeFirst() }
                    let escaped = NSRegularExpressionEscaping.escape(context)
                    scoped = .match(body.hasPrefix("/") || body.hasPrefix("\\/") ? escaped + body : escaped + "/" + body)
                }
            default:
                scoped = uri
                needsWithin = !context.isEmpty
            }
            if let compiled = predicate(scoped, at: ".uri") {
                add(.uri(compiled), "uri", .matcher(scoped))
                if case .path(let pattern) = compiled {
                    if pattern.literal == nil { pathPattern = pattern }
                }
            }
            if needsWithin {
                add(.uriWithin(context), "uri", .text("under the context \(quoted(context))"))
            }
        }
        if let method = pattern.method, let compiled = predicate(method, at: ".method", caseInsensitive: true) {
            add(.method(compiled), "method", .matcher(method))
        }
        if let version = pattern.version, let compiled = predicate(version, at: ".version") {
            add(.version(compiled), "version", .matcher(version))
        }
        for entry in pattern.headers {
            let subpath = ".headers" + JSONPathText.key(entry.key)
            if let compiled = predicate(entry.matcher, at: subpath) {
                add(.header(entry.key, compiled), "headers" + JSONPathText.key(entry.key), .matcher(entry.matcher))
            }
        }
        for entry in pattern.queries {
            let subpath = ".queries" + JSONPathText.key(entry.key)
            if let compiled = predicate(entry.matcher, at: subpath) {
                add(.query(entry.key, compiled), "queries" + JSONPathText.key(entry.key), .matcher(entry.matcher))
            }
        }
        for entry in pattern.cookies {
            let subpath = ".cookies" + JSONPathText.key(entry.key)
            if let compiled = predicate(entry.matcher, at: subpath) {
                add(.cookie(entry.key, compiled), "cookies" + JSONPathText.key(entry.key), .matcher(entry.matcher))
            }
        }
        for entry in pattern.forms {
            let subpath = ".forms" + JSONPathText.key(entry.key)
            if let compiled = predicate(entry.matcher, at: subpath) {
                add(.form(entry.key, compiled), "forms" + JSONPathText.key(entry.key), .matcher(entry.matcher))
            }
        }
        if let text = pattern.text {
            switch text {
            case .json(let value):
                add(.bodyJSON(value), "text", .matcher(text))
            case .xml(let source):
                if let document = XMLElementNode.parse(Array(source.utf8)) {
                    add(.bodyXML(document), "text", .matcher(text))
                } else {
                    problems.append(StubCompileProblem(path: path + ".text.xml", message: "expected well-formed XML"))
                }
            default:
                if let compiled = predicate(text, at: ".text") { add(.text(compiled), "text", .matcher(text)) }
            }
        }
        if let file = pattern.file {
            let subpath = path + ".file"
            switch ConfinedFiles.read(file.path, root: scope.fileRoot, fallback: scope.fallbackRoot) {
            case .failure(let failure) where failure.isNotFound:
                // moco reads the file only when such a session is tried, so configs carry
                // sessions whose file never exists: a load-time warning, and no match.
                add(.missingBodyFile(file.path), "file", .text("the content of \(quoted(file.path)), which does not exist"))
            case .failure(let failure):
                problems.append(StubCompileProblem(path: subpath, message: failure.message))
            case .success(let bytes):
                switch file.comparison {
                case .exact:
                    add(.bodyBytes(bytes), "file", .text("the content of \(quoted(file.path))"))
                case .json:
                    do throws(JSONSyntaxError) {
                        add(.bodyJSON(try JSONParser.parse(bytes).value), "file", .text("JSON equal to the content of \(quoted(file.path))"))
                    } catch {
                        problems.append(StubCompileProblem(path: subpath, message: "\(quoted(file.path)): \(error.description)"))
                    }
                case .xml:
                    if let document = XMLElementNode.parse(bytes) {
                        add(.bodyXML(document), "file", .text("XML equal to the content of \(quoted(file.path))"))
                    } else {
                        problems.append(StubCompileProblem(path: subpath, message: "\(quoted(file.path)) is not well-formed XML"))
                    }
                }
            }
        }
        if let json = pattern.json {
            add(.bodyJSON(json), "json", .json(prefix: "JSON equal to ", json))
        }
        for entry in pattern.jsonPaths {
            let subpath = ".json_paths" + JSONPathText.key(entry.key)
            do throws(JSONPath.SyntaxError) {
                let compiledPath = try JSONPath(entry.key)
                if let compiled = predicate(entry.matcher, at: subpath) {
                    add(.jsonPath(compiledPath, compiled), "json_paths" + JSONPathText.key(entry.key), .matcher(entry.matcher))
                }
            } catch {
                problems.append(StubCompileProblem(path: path + subpath, message: error.description))
            }
        }
        if let structure = pattern.structure {
            switch structure {
            case .json(let shape):
                add(.structureJSON(shape), "struct", .json(prefix: "JSON shaped like ", shape))
            case .xml(let source):
                if let document = XMLElementNode.parse(Array(source.utf8)) {
                    add(.structureXML(document), "struct", .text("XML shaped like \(clip(source))"))
                } else {
                    problems.append(StubCompileProblem(path: path + ".struct.xml", message: "expected well-formed XML"))
                }
            }
        }
        for entry in pattern.xpaths {
            let subpath = ".xpaths" + JSONPathText.key(entry.key)
            do throws(XPathExpression.SyntaxError) {
                let expression = try XPathExpression(entry.key)
                if let compiled = predicate(entry.matcher, at: subpath) {
                    add(.xpath(expression, compiled), "xpaths" + JSONPathText.key(entry.key), .matcher(entry.matcher))
                }
            } catch {
                problems.append(StubCompileProblem(path: path + subpath, message: error.description))
            }
        }
        return conditions
    }

    private static func compileRequest(
        _ pattern: RequestPattern, context: String, path: String, labelPrefix: String, scope: StubScope,
        problems: inout [StubCompileProblem], pathPattern: AntPathPattern?
    ) -> [RequestCondition] {
        var ignoredPattern: AntPathPattern?
        return compileRequest(
            pattern, context: context, path: path, labelPrefix: labelPrefix, scope: scope, problems: &problems,
            pathPattern: &ignoredPattern)
    }
}

/// Escapes text for use inside a regular expression.
enum NSRegularExpressionEscaping {
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
