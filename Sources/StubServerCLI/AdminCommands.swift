import Foundation
import StubServerClient

/// `stubserver requests` and `stubserver reset`: the admin API for people at a terminal.
enum AdminCommands {
    static let connectionOptions: [CommandLineArguments.Option] = [.port, .host, .adminToken]

    static func client(_ parsed: CommandLineArguments, command: String) throws -> StubServerClient {
        // The same default as `start`, so `stubserver start …` then `stubserver requests` just works.
        let port = try parsed.port("port", option: "-p", command: command) ?? StartCommand.defaultPort
        return StubServerClient(port: port, host: parsed["host"] ?? "127.0.0.1", token: parsed["admin-token"], timeout: 10)
    }

    static func requests(_ arguments: [String]) throws -> Int32 {
        let name = "requests"
        let options = connectionOptions + [.flag("--unmatched"), .value("--limit")]
        guard let parsed = try CommandLineArguments.parse(arguments, options: options, command: name, help: Help.requests) else {
            return 0
        }
        var limit: Int?
        if let text = parsed["limit"] {
            guard let value = Int(text), value >= 0 else {
                throw UsageError(message: "invalid value '\(text)' for '--limit': expected a non-negative number", command: name)
            }
            limit = value
        }
        let client = try client(parsed, command: name)
        let unmatched = parsed.has("unmatched")
        let last = limit
        let entries = try wait { try await client.requests(limit: last, unmatchedOnly: unmatched) }
        for entry in entries { Console.out(entry.summary) }
        if entries.isEmpty { Console.err(unmatched ? "no unmatched requests" : "no requests") }
        return 0
    }

    static func reset(_ arguments: [String]) throws -> Int32 {
        let name = "reset"
        guard let parsed = try CommandLineArguments.parse(arguments, options: connectionOptions, command: name, help: Help.reset) else {
            return 0
        }
        let client = try client(parsed, command: name)
        try wait { try await client.reset() }
        Console.out("reset: journal cleared, sequences and scenarios restarted, added stubs dropped")
        return 0
    }

    /// Runs an admin call to completion from synchronous `main`; failures are runtime errors (exit 1).
    @discardableResult
    static func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let box = Outcome<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        switch box.result! {
        case .success(let value): return value
        case .failure(let error as StubServerClientError):
            throw RuntimeFailure(lines: [error.message] + error.diagnostics)
        case .failure(let error): throw RuntimeFailure("\(error)")
        }
    }

    private final class Outcome<T>: @unchecked Sendable {
        var result: Result<T, Error>?
    }
}
