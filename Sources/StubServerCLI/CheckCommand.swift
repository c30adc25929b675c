import Foundation
import OpenAPI
import StubServer

/// `stubserver check --openapi API (-c CONFIG | -g SETTINGS [-e ENV])`: every stub against the
/// API's OpenAPI document. Exit 0 clean, 1 on drift (or warnings with `--strict`) or when a
/// file cannot be loaded, 64 on a usage error. The checking itself is `ContractCheck`.
enum CheckCommand {
    static let name = "check"

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = [.openAPI] + CommandLineArguments.Option.configSource + [.strict, .value("--format"), .value("--expect-drift")]
        guard let parsed = try CommandLineArguments.parse(arguments, options: options, command: name, help: Help.check) else {
            return 0
        }
        guard let document = parsed["openapi"] else {
            throw UsageError(message: "missing '--openapi <document>'", command: name)
        }
        let format = parsed["format"] ?? "text"
        guard format == "text" || format == "json" else {
            throw UsageError(message: "'--format' must be 'text' or 'json', not '\(format)'", command: name)
        }
        let source = try ConfigSource(parsed, command: name)
        let strict = parsed.has("strict")
        let expected = (parsed["expect-drift"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
        let api = try loadDocument(document)
        let report = try check(api, source: source, expected: expected)
        Console.out(format == "json" ? report.json(strict: strict) : report.text(strict: strict))
        return report.fails(strict: strict) ? 1 : 0
    }

    static func loadDocument(_ path: String) throws -> OpenAPIDocument {
        switch Result(catching: { () throws(OpenAPIError) -> OpenAPIDocument in try OpenAPILoader().load(path) }) {
        case .success(let api): return api
        case .failure(let error): throw RuntimeFailure(lines: error.diagnostics.map(\.description))
        }
    }

    static func check(_ api: OpenAPIDocument, source: ConfigSource, expected: [String]) throws -> ContractReport {
        let result = Result { () throws(ConfigError) -> ContractReport in
            if let config = source.config { return try ContractCheck.run(api: api, config: config, expectingDrift: expected) }
            return try ContractCheck.run(api: api, settings: source.settings!, environment: source.environment, expectingDrift: expected)
        }
        switch result {
        case .success(let report): return report
        case .failure(let error): throw RuntimeFailure(lines: error.diagnostics.map(\.description))
        }
    }
}
