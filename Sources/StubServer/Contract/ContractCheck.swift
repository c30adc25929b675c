import Foundation
import OpenAPI

/// `stubserver check`: every stub of a configuration against an OpenAPI document. For each
/// session it finds the operations it stands for (method and path template, from `uri` in
/// all its forms, REST resources and mounts), checks its request conditions against the
/// declared parameters and request body, and each response it can send against the declared
/// statuses, headers and body schemas.
///
/// ```swift
/// let api = try OpenAPILoader().load("Stubs/openapi.json")
/// let report = try ContractCheck.run(api: api, settings: "Stubs/settings.json")
/// print(report.text(strict: false))
/// if report.fails(strict: false) { exit(1) }
/// ```
public enum ContractCheck {
    /// `-g SETTINGS [-e ENV]`. `expectingDrift` names stubs (`Stubs/worlds_conf.json#4`) that
    /// deliberately break the contract (a malformed payload for an error-handling spec): their
    /// drift becomes a note, and a warning when they no longer drift.
    public static func run(
        api: OpenAPIDocument, settings path: String, environment: String? = nil, expectingDrift: [String] = [],
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) throws(ConfigError) -> ContractReport {
        try run(
            api: api, path: path, option: "-g", environment: environment, expectingDrift: expectingDrift, workingDirectory: workingDirectory
        )
    }

    /// `-c CONFIG` (a file or glob).
    public static func run(
        api: OpenAPIDocument, config path: String, expectingDrift: [String] = [],
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) throws(ConfigError) -> ContractReport {
        try run(api: api, path: path, option: "-c", environment: nil, expectingDrift: expectingDrift, workingDirectory: workingDirectory)
    }

    static func run(
        api: OpenAPIDocument, path: String, option: String, environment: String?, expectingDrift: [String], workingDirectory: String
    ) throws(ConfigError) -> ContractReport {
        var load = LoadRun(workingDirectory: workingDirectory, environment: environment)
        load.loadTopLevel(path, option: option)
        guard load.diagnostics.isEmpty else { throw ConfigError(load.sortedDiagnostics()) }
        var checker = StubContractChecker(api: api, load: load)
        for stub in load.stubs { checker.check(stub) }
        checker.applyExpectedDrift(expectingDrift)
        return checker.report()
    }
}

/// Checks stubs one by one, collecting findings and which operations they cover.
struct StubContractChecker {
    let api: OpenAPIDocument
    let validator: SchemaValidator
    var load: LoadRun
    var findings: [ContractFinding] = []
    var covering: [[String]]
    var stubsChecked = 0

    /// Stands for a template placeholder's value in a body (a private-use character no real
    /// payload contains): the validator treats it as "unknown".
    static let unknownMarker = "\u{E000}\u{E001}"

    init(api: OpenAPIDocument, load: LoadRun) {
        self.api = api
        self.validator = SchemaValidator(api, unknownMarker: Self.unknownMarker)
        self.load = load
        self.covering = Array(repeating: [], count: api.operations.count)
    }

    /// Where one stub (or one session a resource expands into) was written.
    struct Site {
        var reference: StubReference
        /// `[3]` or `[3].resource.get[0]`.
        var path: String
        var description: String { reference.description }
    }

    mutating func add(_ severity: ContractFinding.Severity, _ site: Site, _ relative: String, _ message: String) {
        let file = site.reference.file
        let path = site.path + relative
        let position = load.position(file: file, path: path)
        let finding = ContractFinding(
            severity: severity, file: file, path: path, position: position, stub: site.description, message: message)
        if !findings.contains(finding) { findings.append(finding) }
    }

    mutating func check(_ stub: StubDefinition) {
        guard let reference = stub.reference else { return }
        let base = "[\(reference.index)]"
        stubsChecked += 1
        if stub.resource != nil {
            var problems: [StubCompileProblem] = []
            for session in ResourceExpansion.sessions(for: stub, problems: &problems) {
                // Only the entries written in the file; the 404/400 answers moco adds are its own.
                guard session.sourcePath.hasSuffix("]") || session.sourcePath.hasSuffix(".get") else { continue }
                checkSession(session, site: Site(reference: reference, path: base + session.sourcePath))
            }
            return
        }
        if let mount = stub.mount {
            checkMount(mount, stub: stub, site: Site(reference: reference, path: base))
            return
        }
        if stub.response?.websocket != nil { return } // not HTTP request/response: OpenAPI does not describe it
        guard stub.request != nil else { return } // a catch-all answers whatever nothing else does
        checkSession(stub, site: Site(reference: reference, path: base))
    }

    mutating func checkSession(_ stub: StubDefinition, site: Site) {
        guard let request = stub.request else { return }
        let uri = request.uri.map { Self.applying(context: stub.scope.context, to: $0) }
        let byPath = OperationLookup.operations(in: api, uri: uri)
        if byPath.isEmpty {
            let shown = uri.map(\.description) ?? "any path"
            let bases =
                api.basePaths == [""]
                ? ""
                : " under the base path\(api.basePaths.count > 1 ? "s" : "") " + api.basePaths.map { "\"\($0)\"" }.joined(separator: ", ")
            add(.drift, site, ".request.uri", "unknown path: no operation of the API matches \(shown)\(bases)")
            return
        }
        let candidates = byPath.filter { OperationLookup.methodMatches(request.method, $0.operation.method) }
        if candidates.isEmpty {
            var paths: [String] = []
            for match in byPath where !paths.contains(match.operation.path) { paths.append(match.operation.path) }
            let methods = byPath.map(\.operation.method)
            let wanted = request.method.map(\.description) ?? "any method"
            add(
                .drift, site, request.method == nil ? ".request" : ".request.method",
                "wrong method: \(paths.joined(separator: ", ")) has no operation for \(wanted) (the API has \(Self.unique(methods).joined(separator: ", ")))"
            )
            return
        }
        let chosen = OperationLookup.mostSpecific(candidates, concrete: uri.map(OperationLookup.isConcrete) ?? false)
        for match in chosen {
            if let index = api.operations.firstIndex(where: { $0.location == match.operation.location }),
                !covering[index].contains(site.description)
            {
                covering[index].append(site.description)
            }
        }
        checkRequest(request, candidates: chosen, site: site)
        if let location = stub.redirectTo {
            let redirect = ResponseDefinition(status: 302, headers: [ResponseHeader("Location", location)])
            checkResponse(redirect, scope: stub.scope, operations: chosen.map(\.operation), site: site, path: ".redirectTo")
        }
        if let response = stub.response {
            checkResponse(response, scope: stub.scope, operations: chosen.map(\.operation), site: site, path: ".response")
        }
    }

    mutating func checkMount(_ mount: MountDefinition, stub: StubDefinition, site: Site) {
        let prefix = StubCompiler.join(
            StubCompiler.normalizedContext(stub.scope.context), mount.uri.hasPrefix("/") ? mount.uri : "/" + mount.uri)
        let matches = OperationLookup.operations(in: api, uri: .startsWith(prefix.hasSuffix("/") ? prefix : prefix + "/")).filter {
            $0.operation.method == "GET"
        }
        if matches.isEmpty {
            add(.drift, site, ".mount.uri", "unknown path: the API has no GET operation under \(PathText.quoted(prefix))")
            return
        }
        for match in matches {
            if let index = api.operations.firstIndex(where: { $0.location == match.operation.location }),
                !covering[index].contains(site.description)
            {
                covering[index].append(site.description)
            }
        }
        add(
            .warning, site, ".mount",
            "the files a mount serves are not checked against the response schemas (\(matches.count) operation\(matches.count == 1 ? "" : "s") under \(PathText.quoted(prefix)))"
        )
    }

    /// The settings `context` in front of the uri, as the router applies it.
    static func applying(context: String, to matcher: TextMatcher) -> TextMatcher {
        let context = StubCompiler.normalizedContext(context)
        guard !context.isEmpty else { return matcher }
        switch matcher {
        case .equal(let uri): return .equal(StubCompiler.join(context, uri))
        case .path(let uri): return .path(StubCompiler.join(context, uri))
        case .startsWith(let uri): return .startsWith(StubCompiler.join(context, uri))
        case .match(let pattern):
            return .match(NSRegularExpression.escapedPattern(for: context) + (pattern.hasPrefix("/") ? "" : "/") + pattern)
        default: return matcher
        }
    }

    static func unique(_ items: [String]) -> [String] {
        var seen: [String] = []
        for item in items where !seen.contains(item) { seen.append(item) }
        return seen
    }

    mutating func applyExpectedDrift(_ stubs: [String]) {
        for stub in stubs {
            let indices = findings.indices.filter { findings[$0].stub == stub && findings[$0].severity == .drift }
            if indices.isEmpty {
                findings.append(
                    ContractFinding(
                        severity: .warning, file: stub.split(separator: "#").first.map(String.init) ?? stub, path: "", position: nil,
                        stub: stub,
                        message: "\(stub) is expected to drift (--expect-drift) but matches the API; remove it from the list"))
            }
            for index in indices {
                findings[index].severity = .note
                findings[index].message += " (expected: --expect-drift)"
            }
        }
    }

    func report() -> ContractReport {
        var rank: [String: Int] = [:]
        for finding in findings where rank[finding.file] == nil { rank[finding.file] = rank.count }
        let sorted = findings.enumerated().sorted { left, right in
            let l = left.element
            let r = right.element
            if l.file != r.file { return rank[l.file]! < rank[r.file]! }
            let lp = l.position.map { ($0.line, $0.column) } ?? (0, 0)
            let rp = r.position.map { ($0.line, $0.column) } ?? (0, 0)
            if lp != rp { return lp < rp }
            return left.offset < right.offset
        }.map(\.element)
        let coverage = api.operations.enumerated().map { index, operation in
            ContractCoverageRow(method: operation.method, path: operation.path, stubs: covering[index])
        }
        return ContractReport(document: api.name, findings: sorted, coverage: coverage, stubsChecked: stubsChecked)
    }
}
