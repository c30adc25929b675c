import Foundation
import Locking

/// moco's `socket` server: a TCP server whose sessions match the text a client sends and answer
/// text, from the same JSON configuration format (`stubserver socket -p PORT -c FILE`).
///
/// ```swift
/// // [{"request": {"text": "foo"}, "response": {"text": "bar"}}, {"response": {"text": "blah"}}]
/// let server = try SocketStubServer(configFile: "socket.json")
/// try server.start()                 // 127.0.0.1, a free port: server.port
/// defer { server.stop() }
/// // send "foo" over TCP → "bar"; anything else → "blah"
/// ```
///
/// Each burst of bytes a client sends (what arrives together) is one request, as in moco.
/// When no session matches, nothing is sent and the connection stays open.
public final class SocketStubServer: @unchecked Sendable, ReloadableConfiguration {
    public struct Options: Sendable {
        /// Numeric address to bind; loopback unless you mean to expose the server.
        public var host = "127.0.0.1"
        /// 0 picks a free port (read it from `port` after `start()`).
        public var port = 0
        /// Connections, idle time between bytes (`upgradedIdleTimeout`), graceful stop.
        public var limits = HTTPServerLimits()
        /// Event-loop threads; 0 means one per usable CPU.
        public var eventLoopCount = 0
        /// Where relative file names resolve; nil means the process's current directory.
        public var workingDirectory: String?
        /// Called once per request received, on an event-loop thread: keep it quick.
        public var logger: (@Sendable (SocketExchange) -> Void)?

        public init(host: String = "127.0.0.1", port: Int = 0, logger: (@Sendable (SocketExchange) -> Void)? = nil) {
            self.host = host
            self.port = port
            self.logger = logger
        }
    }

    public let options: Options
    private let configFile: String
    private let routes: RouteTable
    private let engine: HTTPServer
    /// The configuration serving now; a reload swaps it and the routes under its lock.
    private let current: Locked<LoadedConfig>
    private let configurationWatch = ConfigurationWatch(queueLabel: "stubserver.socket.reload")

    /// Loads a `-c`-style configuration (file or glob) of socket sessions. Throws `ConfigError`
    /// listing every problem, including HTTP-only keys (`uri`, `status`, …) a socket cannot use.
    public init(configFile: String, options: Options = Options()) throws {
        self.options = options
        self.configFile = configFile
        let loaded = try Self.load(configFile, options)
        current = Locked(loaded)
        let routes = RouteTable(loaded.router)
        self.routes = routes
        var configuration = HTTPServer.Configuration(host: options.host, port: options.port, limits: options.limits)
        configuration.eventLoopCount = options.eventLoopCount
        let logger = options.logger
        engine = HTTPServer(configuration: configuration, streamHandler: { SocketSession(routes: routes, logger: logger) })
    }

    private static func load(_ configFile: String, _ options: Options) throws -> LoadedConfig {
        let directory = options.workingDirectory ?? FileManager.default.currentDirectoryPath
        let definitions = try ConfigLoader.definitions(config: configFile, workingDirectory: directory)
        let problems = SocketSessionRules.problems(in: definitions.stubs)
        guard problems.isEmpty else { throw ConfigError(problems) }
        return try ConfigLoader.load(config: configFile, workingDirectory: directory)
    }

    deinit {
        configurationWatch.stop()
        engine.stop()
    }

    /// Binds and starts serving; returns once connections are accepted.
    public func start() throws { try engine.start() }

    /// Closes every connection and the listener (each client's pending answer is dropped).
    public func stop() {
        stopWatching()
        engine.stop()
    }

    public var port: Int { engine.port }
    public var isRunning: Bool { engine.isRunning }
    public var eventLoopCount: Int { engine.eventLoopCount }

    public var warnings: [ConfigDiagnostic] { current.withLock { $0.warnings } }

    public var watchedFiles: [String] { current.withLock { $0.watchedFiles } }

    /// Reads the configuration again; on error the last good one keeps serving.
    public func reload() throws {
        let loaded = try Self.load(configFile, options)
        current.withLock { current in
            current = loaded
            routes.replace(with: loaded.router)
        }
    }

    /// Reloads whenever a configuration file changes; `onReload` hears of each attempt.
    public func watchConfiguration(onReload: @escaping @Sendable (ReloadEvent) -> Void = { _ in }) {
        configurationWatch.start(reloading: self, onReload: onReload)
    }

    public func stopWatching() {
        configurationWatch.stop()
    }
}
