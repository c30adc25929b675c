/// A problem found while compiling a stub (a bad template, regex or cookie), located by the
/// stub and the JSON path inside it.
struct StubCompileProblem: Error, Sendable {
    var path: String
    var message: String
}

/// Turns `ResponseDefinition`s into `ResponseStep`s, in moco's key order: body (`text`,
/// `file`, `json`), `status`, `headers`, `cookies`, `latency`, `version`, `attachment`, `seq`/`cycle`.
enum ResponseCompiler {
    static func steps(
        for response: ResponseDefinition, path: String, scope: StubScope, problems: inout [StubCompileProblem]
    ) -> [ResponseStep] {
        var steps: [ResponseStep] = []
        if let body = response.body, let plan = bodyPlan(body, path: path, scope: scope, problems: &problems) {
            steps.append(.body(plan))
        }
        if let status = response.status {
            if (100...599).contains(status) {
                steps.append(.status(status))
            } else {
                problems.append(
                    StubCompileProblem(path: path + ".status", message: "expected a status code from 100 to 599, got \(status)"))
            }
        }
        for header in response.headers {
            func headerPath() -> String { path + ".headers" + JSONPathText.key(header.name) }
            if let problem = headerNameProblem(header.name) {
                problems.append(StubCompileProblem(path: headerPath(), message: problem))
                continue
            }
            if case .literal(let value) = header.value, let problem = HeaderValueCheck.problem(in: value) {
                problems.append(StubCompileProblem(path: headerPath(), message: HeaderValueCheck.valueMessage(problem)))
                continue
            }
            if let plan = textPlan(header.value, path: headerPath(), problems: &problems) {
                steps.append(.header(header.name, plan))
            }
        }
        for cookie in response.cookies {
            func cookiePath() -> String { path + ".cookies" + JSONPathText.key(cookie.name) }
            if let problem = SetCookieEncoder.problem(name: cookie.name) {
                problems.append(StubCompileProblem(path: cookiePath(), message: problem))
                continue
            }
            if case .literal(let value) = cookie.value, let problem = SetCookieEncoder.problem(value: value) {
                problems.append(StubCompileProblem(path: cookiePath(), message: problem))
                continue
            }
            for (attribute, text) in [("path", cookie.path), ("domain", cookie.domain)] {
                if let text, text.contains(where: { $0 == ";" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) {
                    problems.append(
                        StubCompileProblem(
                            path: cookiePath() + "." + attribute, message: "a cookie \(attribute) cannot contain ';' or a line break"))
                }
            }
            if let plan = textPlan(cookie.value, path: cookiePath(), problems: &problems) {
                steps.append(.cookie(cookie, plan))
            }
        }
        if let latency = response.latency {
            if latency < .zero {
                problems.append(StubCompileProblem(path: path + ".latency", message: "latency cannot be negative"))
            } else {
                steps.append(.latency(latency))
            }
        }
        if let version = response.version {
            if case .literal(let text) = version, !(text == "HTTP/1.0" || text == "HTTP/1.1") {
                problems.append(
                    StubCompileProblem(path: path + ".version", message: "expected \"HTTP/1.0\" or \"HTTP/1.1\", got \(quoted(text))"))
            } else if let plan = textPlan(version, path: path + ".version", problems: &problems) {
                steps.append(.version(plan))
            }
        }
        if let attachment = response.attachment {
            let attachmentPath = path + ".attachment"
            if attachment.filename.isEmpty || attachment.filename.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) {
                problems.append(StubCompileProblem(path: attachmentPath + ".filename", message: "expected a file name without line breaks"))
            } else if let plan = bodyPlan(attachment.body, path: attachmentPath, scope: scope, problems: &problems) {
                steps.append(.attachment(filename: attachment.filename, plan))
            }
        }
        if let sequence = response.sequence {
            let (name, cycles) = {
                if case .cycle = sequence { return ("cycle", true) }
                return ("seq", false)
            }()
            let responses = sequence.responses
            if responses.isEmpty {
                problems.append(StubCompileProblem(path: path + "." + name, message: "expected at least one response"))
            } else {
                let alternatives = responses.enumerated().map { offset, element in
                    ResponseCompiler.steps(for: element, path: "\(path).\(name)[\(offset)]", scope: scope, problems: &problems)
                }
                steps.append(.sequence(SequenceCounter(count: responses.count, cycles: cycles), alternatives))
            }
        }
        if let cors = response.cors {
            steps.append(.cors(cors))
        }
        steps += liveSteps(for: response, path: path, scope: scope, problems: &problems)
        return steps
    }

    static func bodyPlan(_ body: ResponseBody, path: String, scope: StubScope, problems: inout [StubCompileProblem]) -> BodyPlan? {
        switch body {
        case .text(.literal(let text)):
            return .bytes(Array(text.utf8), contentType: ContentTypes.text)
        case .text(let value):
            guard let plan = textPlan(value, path: path + ".text", problems: &problems) else { return nil }
            switch plan {
            case .literal(let text): return .bytes(Array(text.utf8), contentType: ContentTypes.text)
            case .template(let template): return .template(template, contentType: ContentTypes.text)
            }
        case .json(let value):
            // A JSON string is written raw, as moco does (`"json": "hi"` → `hi`).
            let text = value.stringValue ?? value.compactText
            return .bytes(Array(text.utf8), contentType: ContentTypes.json)
        case .file(let source):
            guard let name = textPlan(source.name, path: path + ".file", problems: &problems) else { return nil }
            if source.rendersContent {
                do throws(TemplateSyntaxError) {
                    // Check the variable names now; the content is parsed per request.
                    _ = try Template("", variables: source.vars)
                } catch {
                    problems.append(StubCompileProblem(path: path + ".file", message: error.description))
                    return nil
                }
            }
            return .file(
                FilePlan(
                    name: name, charset: source.charset, rendersContent: source.rendersContent, vars: source.vars,
                    root: scope.fileRoot, fallback: scope.fallbackRoot))
        }
    }

    static func textPlan(_ value: TextValue, path: String, problems: inout [StubCompileProblem]) -> TextPlan? {
        do throws(TemplateSyntaxError) {
            return try TextPlan(value)
        } catch {
            problems.append(StubCompileProblem(path: path + (value.isTemplate ? ".template" : ""), message: error.description))
            return nil
        }
    }

    static func headerNameProblem(_ name: String) -> String? {
        guard !name.isEmpty else { return "a header name cannot be empty" }
        // RFC 9110 token characters, checked on bytes; characters only to name a bad one.
        if name.utf8.allSatisfy({ byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }) {
            return nil
        }
        let allowed = Set("!#$%&'*+-.^_`|~")
        if let bad = name.first(where: { !($0.isASCII && ($0.isLetter || $0.isNumber || allowed.contains($0))) }) {
            return "the header name \(quoted(name)) contains \(quoted(String(bad))), which header names cannot"
        }
        return nil
    }
}
