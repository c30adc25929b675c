import Foundation

extension StubCompiler {
    /// The conditions of a session's request pattern (with the settings' `context`).
    static func compileRequest(
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
        // Named fields: `headers.Accept` is both the label and (after a dot) the JSON path. A key
        // that is an expression (`json_paths`, `xpaths`) has to compile too; a plain name is the
        // key itself, which cannot fail (`Failure` is `Never`).
        func addEach<Key, Failure: Error>(
            _ entries: KeyedMatchers, _ field: String, compile: (String) throws(Failure) -> Key,
            _ test: (Key, TextPredicate) -> RequestCondition.Test
        ) {
            for entry in entries {
                let label = field + JSONPathText.key(entry.key)
                do throws(Failure) {
                    let key = try compile(entry.key)
                    if let compiled = predicate(entry.value, at: "." + label) {
                        add(test(key, compiled), label, .matcher(entry.value))
                    }
                } catch {
                    problems.append(StubCompileProblem(path: path + "." + label, message: String(describing: error)))
                }
            }
        }
        addEach(pattern.headers, "headers", compile: { $0 }, RequestCondition.Test.header)
        addEach(pattern.queries, "queries", compile: { $0 }, RequestCondition.Test.query)
        addEach(pattern.cookies, "cookies", compile: { $0 }, RequestCondition.Test.cookie)
        addEach(pattern.forms, "forms", compile: { $0 }, RequestCondition.Test.form)
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
                        add(
                            .bodyJSON(try JSONParser.parse(bytes).value), "file", .text("JSON equal to the content of \(quoted(file.path))")
                        )
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
        addEach(pattern.jsonPaths, "json_paths", compile: JSONPath.init, RequestCondition.Test.jsonPath)
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
        addEach(pattern.xpaths, "xpaths", compile: XPathExpression.init, RequestCondition.Test.xpath)
        return conditions
    }

    static func compileRequest(
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
