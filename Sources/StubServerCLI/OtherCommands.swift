import Foundation
import StubServer

/// `stubserver shutdown -s PORT`.
enum ShutdownCommand {
    static let name = "shutdown"

    static func run(_ arguments: [String]) throws -> Int32 {
        guard let parsed = try CommandLineArguments.parse(arguments, options: [.shutdownPort], command: name, help: Help.shutdown) else {
            return 0
        }
        guard let port = try parsed.port("shutdown-port", option: "-s", command: name) else {
            throw UsageError(message: "missing '-s <shutdown-port>'", command: name)
        }
        try ShutdownPort.requestShutdown(port: port)
        return 0
    }
}

/// `stubserver validate -c FILE`: every diagnostic, exit 1 if any.
enum ValidateCommand {
    static let name = "validate"

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = CommandLineArguments.Option.configSource + [.strict]
        guard let parsed = try CommandLineArguments.parse(arguments, options: options, command: name, help: Help.validate) else {
            return 0
        }
        let source = try ConfigSource(parsed, command: name)
        let strict = parsed.has("strict")
        do {
            let loaded = try source.load()
            if strict, !loaded.warnings.isEmpty {
                throw RuntimeFailure(lines: loaded.warnings.map { "\($0) (an error with --strict)" })
            }
            for warning in loaded.warnings { Console.err("stubserver: warning: \(warning)") }
            let sessions = loaded.sessionCount
            let files = loaded.watchedFiles.count
            let warnings = loaded.warnings.isEmpty ? "" : ", \(loaded.warnings.count) warning\(loaded.warnings.count == 1 ? "" : "s")"
            Console.out(
                "\(source.config ?? source.settings!): ok (\(sessions) session\(sessions == 1 ? "" : "s") from \(files) file\(files == 1 ? "" : "s")\(warnings))"
            )
            return 0
        } catch let error as ConfigError {
            throw RuntimeFailure(lines: error.diagnostics.map(\.description))
        }
    }
}

/// `stubserver version`.
enum VersionCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, options: [], command: "version")
        Console.out(parsed.wantsHelp ? Help.version : "stubserver \(StubServer.version)")
        return 0
    }
}
