import Foundation
import StubServer

/// `stubserver socket`: moco's socket server (`-p -c -s -q`), a TCP server answering text.
enum SocketCommand {
    static let name = "socket"
    static let options = ServingProcess.options + [.config]

    static func run(_ arguments: [String]) throws -> Int32 {
        guard let parsed = try CommandLineArguments.parse(arguments, options: options, command: name, help: Help.socket) else { return 0 }
        guard let config = parsed["config"] else { throw UsageError(message: "missing '-c <config>'", command: name) }
        let port = try parsed.port("port", option: "-p", command: name) ?? 12306
        let shutdownPort = try parsed.port("shutdown-port", option: "-s", command: name) ?? 0
        let host = parsed["host"] ?? "127.0.0.1"
        let threads = try parsed.number("threads", option: "--threads", in: 1...1024, command: name)

        ServingProcess.prepare()

        var serverOptions = SocketStubServer.Options(host: host, port: port)
        serverOptions.eventLoopCount = threads ?? 0
        let log = RequestLog()
        if !parsed.has("quiet") {
            serverOptions.logger = { exchange in log.append(describe(exchange)) }
        }
        let server: SocketStubServer
        do {
            server = try SocketStubServer(configFile: config, options: serverOptions)
        } catch let error as ConfigError {
            throw RuntimeFailure(lines: error.diagnostics.map(\.description))
        }
        for warning in server.warnings { Console.err("stubserver: warning: \(warning)") }
        if !SocketAddressCheck.isLoopback(host) {
            Console.err("stubserver: warning: listening on \(host) exposes your stubs to every machine that can reach this one")
        }
        do {
            try server.start()
        } catch {
            throw RuntimeFailure("\(error)")
        }
        server.watchConfiguration(onReload: ServingProcess.reloadReporter(log: log))
        Console.out("Server is started at \(server.port)")

        return try ServingProcess.serveUntilStopped(shutdownPort: shutdownPort, log: log) { server.stop() }
    }

    /// `received "foo" → sent "bar" (socket.json#0)`, or `received "x": no match (closest: …)`.
    static func describe(_ exchange: SocketExchange) -> String {
        let received = quoted(exchange.received)
        guard let stub = exchange.stub else {
            return "received \(received): no match\(exchange.nearMiss.map { " (\($0))" } ?? ""), nothing sent"
        }
        guard let sent = exchange.sent else {
            return "received \(received) → \(stub): nothing sent: \(exchange.problem ?? "no body")"
        }
        return "received \(received) → sent \(quoted(sent)) (\(stub))"
    }

    /// The text as a JSON string (the one escaper the package has), cut at 200 characters, for
    /// one log line.
    private static func quoted(_ bytes: [UInt8]) -> String {
        var quoted = ""
        JSONWriter.writeString(String(decoding: bytes.prefix(200), as: UTF8.self), into: &quoted)
        return quoted + (bytes.count > 200 ? "… (\(bytes.count) bytes)" : "")
    }
}
