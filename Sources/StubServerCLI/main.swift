import Foundation
import StubServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// `stubserver`: exit 0 on success, 64 on a usage error, 1 on a runtime error.

/// The subcommands, and moco's task names that mean one of them (`java -jar moco-runner.jar http …`
/// is `stubserver start …`). Add an alias here when another moco task maps onto a subcommand.
enum Subcommands {
    static let names = [
        "start", "https", "socket", "cert", "shutdown", "validate", "check", "init", "requests", "reset", "version", "help",
    ]
    static let aliases = ["http": "start"]
}

func runStubServer(_ arguments: [String]) -> Int32 {
    guard let subcommand = arguments.first else {
        Console.err("stubserver: error: missing subcommand")
        Console.err("Run 'stubserver --help' for usage.")
        return 64
    }
    let rest = Array(arguments.dropFirst())
    do {
        switch Subcommands.aliases[subcommand] ?? subcommand {
        case "-h", "--help", "help":
            Console.out(Help.topLevel)
            return 0
        case "start":
            return try StartCommand.run(rest)
        case "https":
            return try StartCommand.run(rest, https: true)
        case "socket":
            return try SocketCommand.run(rest)
        case "cert":
            return try DevelopmentCertificateCommand.run(rest)
        case "shutdown":
            return try ShutdownCommand.run(rest)
        case "validate":
            return try ValidateCommand.run(rest)
        case "check":
            return try CheckCommand.run(rest)
        case "init":
            return try InitCommand.run(rest)
        case "requests":
            return try AdminCommands.requests(rest)
        case "reset":
            return try AdminCommands.reset(rest)
        case "version", "--version":
            return try VersionCommand.run(rest)
        default:
            let hint = Suggestion.closest(to: subcommand, among: Subcommands.names).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError(message: "unknown subcommand '\(subcommand)'\(hint)", command: nil)
        }
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
