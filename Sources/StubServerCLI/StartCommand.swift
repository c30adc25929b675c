import Foundation
import StubServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `stubserver start`: serve, log, hot-reload, stop on a signal or the shutdown port.
enum StartCommand {
    static let name = "start"
    /// The port `start` listens on without `-p`; `requests` and `reset` talk to it without `-p` too.
    static let defaultPort = 12306

    /// `Serving 31 stubs from 4 files on http://127.0.0.1:12306`: what the admin health endpoint knows.
    static func servingLine(stubs: Int, files: Int, url: String) -> String {
        "Serving \(stubs) \(stubs == 1 ? "stub" : "stubs") from \(files) \(files == 1 ? "file" : "files") on \(url)"
    }
    static let options: [CommandLineArguments.Option] =
        ServingProcess.options + CommandLineArguments.Option.configSource + [
            .value("--content-length"), .value("--max-memory"), .adminToken, .flag("--no-admin"), .value("--allowed-host"),
            .openAPI,
        ]

    /// `start`, or moco's `https` task (`https: true`: a keystore or PEM files are required).
    static func run(_ arguments: [String], https: Bool = false) throws -> Int32 {
        let name = https ? HTTPSOptions.command : name
        guard
            let parsed = try CommandLineArguments.parse(
                arguments, options: options + (https ? HTTPSOptions.httpsOptions : HTTPSOptions.startOptions), command: name,
                help: https ? Help.https : Help.start)
        else { return 0 }
        let tls = try HTTPSOptions.identity(parsed, https: https, command: name)
        let source = try ConfigSource(parsed, command: name)
        let port = try parsed.port("port", option: "-p", command: name) ?? defaultPort
        let shutdownPort = try parsed.port("shutdown-port", option: "-s", command: name) ?? 0
        let host = parsed["host"] ?? "127.0.0.1"
        let quiet = parsed.has("quiet")
        let threads = try parsed.number("threads", option: "--threads", in: 1...1024, command: name)
        var limits = HTTPServerLimits()
        if let text = parsed["content-length"] {
            // moco accepts the option and ignores it; here it is the request body limit (413 above).
            guard let bytes = Int(text), bytes >= 0 else {
                throw UsageError(message: "invalid size '\(text)' for '--content-length': expected a number of bytes", command: name)
            }
            limits.maxBodyBytes = bytes
        }
        let maxMemory = try parsed.byteSize("max-memory", option: "--max-memory", command: name)

        ServingProcess.prepare()

        if parsed.has("no-admin") && parsed["admin-token"] != nil {
            throw UsageError(message: "'--no-admin' and '--admin-token' cannot be used together", command: name)
        }
        if let token = parsed["admin-token"], token.isEmpty {
            throw UsageError(message: "'--admin-token' needs a non-empty token", command: name)
        }
        var serverOptions = StubServer.Options(host: host, port: port, limits: limits)
        serverOptions.tls = tls?.identity
        if let maxMemory { serverOptions.limits.maxMemoryBytes = maxMemory }
        serverOptions.limits.chargesProcessBaseline = true // the process is the server: the budget bounds all of it
        if parsed.has("no-admin") {
            serverOptions.admin = .off
        } else if let token = parsed["admin-token"] {
            serverOptions.admin = .token(token)
        }
        if let names = parsed["allowed-host"] {
            let hosts = names.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard !hosts.isEmpty, hosts.allSatisfy({ !$0.isEmpty && !$0.contains(where: { $0 == "/" || $0 == ":" || $0 == " " }) }) else {
                throw UsageError(
                    message: "invalid value '\(names)' for '--allowed-host': expected host names separated by commas (no ports)",
                    command: name)
            }
            serverOptions.allowedHosts = hosts
        }
        if let document = parsed["openapi"] {
            serverOptions.openAPI = try CheckCommand.loadDocument(document)
        }
        let stopRequest = StopRequest()
        serverOptions.onShutdownRequest = { stopRequest.run() }
        serverOptions.eventLoopCount = threads ?? 0
        let log = RequestLog()
        if !quiet {
            serverOptions.logger = { entry in log.append(entry.description) }
        }
        let server = try source.makeServer(options: serverOptions)
        for warning in server.warnings { Console.err("stubserver: warning: \(warning)") }
        if !SocketAddressCheck.isLoopback(host) {
            Console.err("stubserver: warning: listening on \(host) exposes your stubs to every machine that can reach this one")
            if !server.isAdminEnabled && !parsed.has("no-admin") {
                Console.err(
                    "stubserver: note: the admin API (/__admin/) is off because \(host) is wider than loopback; give --admin-token TOKEN to turn it on"
                )
            }
        }
        do {
            try server.start()
        } catch HTTPServerError.addressInUse(let host, let port) where parsed["port"] == nil {
            // moco's default is a free port; ours is a fixed one, which may be taken.
            throw RuntimeFailure("port \(port) on \(host) (the default) is already in use; -p 0 picks a free port, as moco does without -p")
        } catch {
            throw RuntimeFailure("\(error)")
        }
        // Watching starts before the start line: an edit made once the line is out (a user's,
        // or a test's that waits for it) was missed when it landed before the watch was armed.
        server.watchConfiguration(onReload: ServingProcess.reloadReporter(log: log, warnings: { server.warnings }))
        Console.out("Server is started at \(server.port)") // moco's line, first: scripts wait for it
        Console.out(servingLine(stubs: server.stubCount, files: server.watchedFiles.count, url: server.baseURL.absoluteString))
        if let tls {
            Console.out("HTTPS: \(server.baseURL.absoluteString) with \(tls.source)")
            for line in tls.notes?(server.baseURL) ?? [] { Console.out(line) }
        }
        let loops = server.eventLoopCount
        Console.out("Event loops: \(loops) (\(threads == nil ? "one per usable CPU" : "--threads"))")

        return try ServingProcess.serveUntilStopped(shutdownPort: shutdownPort, log: log, stopRequest: stopRequest) {
            server.stop()
        }
    }
}

/// `-c FILE|GLOB` or `-g SETTINGS [-e ENV]`, exactly one.
struct ConfigSource {
    var config: String?
    var settings: String?
    var environment: String?

    init(_ parsed: CommandLineArguments, command: String) throws {
        config = parsed["config"]
        settings = parsed["settings"]
        environment = parsed["env"]
        if config != nil && settings != nil {
            throw UsageError(message: "'-c' and '-g' cannot be used together", command: command)
        }
        if config == nil && settings == nil {
            throw UsageError(message: "missing '-c <config>' or '-g <settings>'", command: command)
        }
        if environment != nil && settings == nil {
            throw UsageError(message: "'-e' needs '-g <settings>'", command: command)
        }
    }

    func makeServer(options: StubServer.Options) throws -> StubServer {
        do {
            if let config { return try StubServer(configFile: config, options: options) }
            return try StubServer(settingsFile: settings!, environment: environment, options: options)
        } catch let error as ConfigError {
            throw RuntimeFailure(lines: error.diagnostics.map(\.description))
        }
    }

    /// The `-e` value, checked against the settings (a typo is an error, not an empty server).
    func load() throws -> LoadedConfig {
        if let config { return try ConfigLoader.load(config: config) }
        return try ConfigLoader.load(settings: settings!, environment: environment)
    }
}

/// Loopback check for the `--host` warning, without the engine's internals.
enum SocketAddressCheck {
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return host.hasPrefix("127.") }
        return false
    }
}
