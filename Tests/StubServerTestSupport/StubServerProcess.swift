import Foundation
import XCTest

/// Runs the built `stubserver` binary as a subprocess and collects its output line by line.
///
/// ```swift
/// let process = try StubServerProcess(["start", "-p", "0", "-c", config.path])
/// let port = try process.waitForPort()
/// ```
package final class StubServerProcess: @unchecked Sendable {
    /// `.build/<triple>/debug/stubserver`, next to the test bundle (`swift build --build-tests`
    /// builds every product).
    package static var binary: URL {
        #if os(Linux)
        let directory = Bundle.main.executableURL!.deletingLastPathComponent()
        #else
        let directory = Bundle(for: StubServerProcess.self).bundleURL.deletingLastPathComponent()
        #endif
        return directory.appendingPathComponent("stubserver")
    }

    package let process = Process()
    private let lock = NSLock()
    private var stdoutLines: [String] = []
    private var stderrLines: [String] = []
    private var partial: [Int: String] = [:]
    private var stdoutReads = 0

    /// `environment` adds to (or overrides) this process's variables.
    package init(_ arguments: [String], workingDirectory: URL? = nil, executable: URL? = nil, environment: [String: String] = [:]) throws {
        process.executableURL = executable ?? Self.binary
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in self?.collect(handle.availableData, stream: 1) }
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in self?.collect(handle.availableData, stream: 2) }
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    private func collect(_ data: Data, stream: Int) {
        guard !data.isEmpty else { return }
        lock.lock()
        defer { lock.unlock() }
        if stream == 1 { stdoutReads += 1 }
        var text = (partial[stream] ?? "") + String(decoding: data, as: UTF8.self)
        while let newline = text.firstIndex(of: "\n") {
            let line = String(text[..<newline])
            if stream == 1 { stdoutLines.append(line) } else { stderrLines.append(line) }
            text = String(text[text.index(after: newline)...])
        }
        partial[stream] = text
    }

    package var stdout: [String] { lock.lock(); defer { lock.unlock() }; return stdoutLines }
    package var stderr: [String] { lock.lock(); defer { lock.unlock() }; return stderrLines }
    /// How many reads of the process's stdout returned data: a reader that is always waiting
    /// gets one per `write` the process made (more merged into one read, never split).
    package var stdoutReadCount: Int { lock.lock(); defer { lock.unlock() }; return stdoutReads }

    /// Waits (generously) for a line on stdout or stderr satisfying `predicate`.
    @discardableResult
    package func waitForLine(timeout: TimeInterval = 30, where predicate: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = (stdout + stderr).first(where: predicate) { return line }
            if !process.isRunning {
                Thread.sleep(forTimeInterval: 0.05)
                return (stdout + stderr).first(where: predicate)
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return nil
    }

    /// The port from `Server is started at PORT`.
    package func waitForPort(file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let found = waitForLine { $0.hasPrefix("Server is started at ") }
        let text = try XCTUnwrap(found, "no start line; stdout: \(stdout) stderr: \(stderr)", file: file, line: line)
        return try XCTUnwrap(Int(text.dropFirst("Server is started at ".count)), file: file, line: line)
    }

    /// Waits for the process to end and returns its exit status (nil on timeout).
    package func waitForExit(timeout: TimeInterval = 30) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        guard !process.isRunning else { return nil }
        Thread.sleep(forTimeInterval: 0.05) // let the pipes drain
        return process.terminationStatus
    }

    package func send(signal: Int32) { kill(process.processIdentifier, signal) }

    /// Runs a short command to completion.
    package static func run(_ arguments: [String], workingDirectory: URL? = nil) throws -> (
        status: Int32, stdout: [String], stderr: [String]
    ) {
        let process = try StubServerProcess(arguments, workingDirectory: workingDirectory)
        guard let status = process.waitForExit() else {
            process.process.terminate()
            throw NSError(domain: "stubserver did not exit: \(arguments)", code: 1)
        }
        return (status, process.stdout, process.stderr)
    }
}
