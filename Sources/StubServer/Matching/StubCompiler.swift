import Foundation

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
                (
                    compileRequest(
                        request, context: context, path: ".request", labelPrefix: "", scope: scope, problems: &problems,
                        pathPattern: &capture), request.uri != nil
                )
            }!
            if conditions.isEmpty { conditions = own } else { conditions += own }
            pathPattern = capture
            if !hasURI, !context.isEmpty {
                conditions.append(
                    RequestCondition(test: .uriWithin(context), label: "uri", expectation: .text("under the context \(quoted(context))")))
            }
        } else if let mount = definition.mount {
            if let point = compileMount(mount, context: context, scope: scope, problems: &problems) {
                if let prefix = try? TextPredicate.compile(.startsWith(point.prefix), caseInsensitive: false) {
                    conditions.append(RequestCondition(test: .uri(prefix), label: "uri", expectation: .matcher(.startsWith(point.prefix))))
                }
                conditions.append(
                    RequestCondition(test: .mountedFile(point), label: "mount", expectation: .text("a file in \(quoted(mount.dir))")))
                mountPoint = point
            }
        } else if !context.isEmpty {
            conditions.append(
                RequestCondition(test: .uriWithin(context), label: "uri", expectation: .text("under the context \(quoted(context))")))
        }

        var steps: [ResponseStep] = []
        for (offset, response) in scope.responses.enumerated() {
            steps += ResponseCompiler.steps(for: response, path: "(settings response \(offset + 1))", scope: scope, problems: &problems)
        }
        if let mountPoint {
            if definition.response.map({ $0.body != nil || $0.attachment != nil }) ?? false {
                problems.append(
                    StubCompileProblem(
                        path: ".mount", message: "a mount serves its files as the body; remove text, file, json or attachment"))
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
            conditions.append(
                RequestCondition(
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
    static func compileMount(_ mount: MountDefinition, context: String, scope: StubScope, problems: inout [StubCompileProblem])
        -> MountPoint?
    {
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
}
