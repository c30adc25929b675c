import Foundation
import StubServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// `stubserver`: exit 0 on success, 64 on a usage error, 1 on a runtime error.

/// The subcommands, and other names that mean one of them: moco's task names (`java -jar
/// moco-runner.jar http …` is `stubserver start …`; add an alias when another moco task maps
/// onto a subcommand) and `--version`.
enum Subcommands {
    /// Each subcommand and what runs it.
    static var commands: KeyValuePairs<String, ([String]) throws -> Int32> {
        [
            "start": { try StartCommand.run($0) },
            "https": { try StartCommand.run($0, https: true) },
            "socket": SocketCommand.run,
            "cert": DevelopmentCertificateCommand.run,
            "shutdown": ShutdownCommand.run,
            "validate": ValidateCommand.run,
            "check": CheckCommand.run,
            "init": InitCommand.run,
            "requests": AdminCommands.requests,
            "reset": AdminCommands.reset,
            "version": VersionCommand.run,
        ]
    }
    static let names = commands.map(\.key) + ["help"]
    static let aliases = ["http": "start", "--version": "version"]
}

func runStubServer(_ arguments: [String]) -> Int32 {
    guard let subcommand = arguments.first else {
        Console.err("stubserver: error: missing subcommand")
        Console.err("Run 'stubserver --help' for usage.")
        return 64
    }
    let rest = Array(arguments.dropFirst())
    do {
        let name = Subcommands.aliases[subcommand] ?? subcommand
        if ["-h", "--help", "help"].contains(name) {
            Console.out(Help.topLevel)
            return 0
        }
        guard let run = Subcommands.commands.first(where: { $0.key == name })?.value else {
            let hint = Suggestion.closest(to: subcommand, among: Subcommands.names).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError(message: "unknown subcommand '\(subcommand)'\(hint)", command: nil)
        }
        return try run(rest)
    } catch let error as UsageError {
        Console.err("stubserver: error: \(error.message)")
        Console.err("Run 'stubserver\(error.command.map { " " + $0 } ?? "") --help' for usage.")
        return 64
    } catch let error as RuntimeFailure {
        for line in error.lines { Console.err("stubserver: error: \(line)") }
        return 1
    } catch {
        Console.err("stubserver: error: \(error)")
        return 1
    }
}

exit(runStubServer(Array(CommandLine.arguments.dropFirst())))
