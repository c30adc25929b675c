import Foundation
import StubServer

/// `stubserver shutdown -s PORT`.
enum ShutdownCommand {
    static let name = "shutdown"

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, options: [
            .init(names: ["-s", "--shutdown-port"], key: "shutdown", takesValue: true),
        ], command: name)
        if parsed.wantsHelp {
            Console.out(Help.shutdown)
            return 0
        }
        guard let port = try parsed.port("shutdown", option: "-s", command: name) else {
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
        let parsed = try CommandLineArguments(arguments, options: [
            .init(names: ["-c", "--config"], key: "config", takesValue: true),
            .init(names: ["-g", "--settings"], key: "settings", takesValue: true),
            .init(names: ["-e", "--env"], key: "env", takesValue: true),
        ], command: name)
        if parsed.wantsHelp {
            Console.out(Help.validate)
            return 0
        }
        let source = try ConfigSource(parsed, command: name)
        do {
            let loaded = try source.load()
            let count = loaded.watchedFiles.count
            Console.out("\(source.config ?? source.settings!): ok (\(count) file\(count == 1 ? "" : "s") read)")
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
