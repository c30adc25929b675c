import Foundation
import XCTest

/// Runs the already built test binary (all test targets share it on Linux) as
/// a subprocess with fixture specs switched on, capturing its output and a
/// private report directory. No second package build.
struct FixtureProcess {
    struct Result {
        var exitCode: Int32
        var output: String
        var reportDirectory: URL

        var lines: [String] { output.components(separatedBy: "\n") }

        var livingDoc: String {
            (try? String(contentsOf: reportDirectory.appendingPathComponent("LIVING-DOC.md"), encoding: .utf8)) ?? ""
        }

        var junit: String {
            (try? String(contentsOf: reportDirectory.appendingPathComponent("junit.xml"), encoding: .utf8)) ?? ""
        }

        /// `TRACE:` lines printed between the start and end of one test.
        func traces(ofTest name: String) -> [String] {
            var inside = false
            var traces: [String] = []
            for line in lines {
                if line.hasPrefix("Test Case '") && line.contains(name) {
                    inside = line.contains("' started at ")
                    continue
                }
                if inside, let range = line.range(of: "TRACE: ") {
                    traces.append(String(line[range.upperBound...]))
                }
            }
            return traces
        }
    }

    /// The running test binary.
    static func binary() throws -> URL {
        #if os(Linux)
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        #else
        throw XCTSkip("fixture subprocesses run the Linux test binary directly; on Apple platforms use xctest")
        #endif
    }

    static func makeReportDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("speckit-fixture-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `arguments` (test selectors or `--list-tests`) with fixtures enabled.
    static func run(
        _ arguments: [String], environment extra: [String: String] = [:], reportDirectory: URL? = nil,
        fixtures: Bool = true, timeout: TimeInterval = 120
    ) throws -> Result {
        let binary = try binary()
        let reports = reportDirectory ?? makeReportDirectory()
        let outputURL = reports.deletingLastPathComponent()
            .appendingPathComponent("out-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let handle = try FileHandle(forWritingTo: outputURL)
        defer {
            try? handle.close()
            try? FileManager.default.removeItem(at: outputURL)
        }

        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("BDD_") && !$0.key.hasPrefix("SPECKIT_") }
        environment["SPECKIT_FIXTURES"] = fixtures ? "1" : nil
        environment["BDD_REPORT_DIR"] = reports.path
        for (key, value) in extra { environment[key] = value }

        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                XCTFail("fixture run \(arguments) did not finish within \(timeout) s")
                break
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        process.waitUntilExit()
        let output = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        return Result(exitCode: process.terminationStatus, output: output, reportDirectory: reports)
    }

    /// The line numbers of `// @mark:<name>` comments in a fixture source file.
    static func line(of mark: String, in file: String) throws -> Int {
        let url = Fixtures.directory.appendingPathComponent(file)
        let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        guard let index = lines.firstIndex(where: { $0.contains("// @mark:\(mark)") }) else {
            throw FixtureMarkMissing(mark: mark, file: file)
        }
        return index + 1
    }

    static func path(of file: String) -> String {
        Fixtures.directory.appendingPathComponent(file).path
    }
}

struct FixtureMarkMissing: Error, CustomStringConvertible {
    var mark: String
    var file: String
    var description: String { "no // @mark:\(mark) in \(file)" }
}
