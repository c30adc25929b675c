import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The report directory: per-scenario fragments of the current run and the
/// merged `LIVING-DOC.md` and `junit.xml`.
///
/// ```
/// <BDD_REPORT_DIR>/
///   LIVING-DOC.md, junit.xml          merged, rewritten atomically
///   .merge.lock                       serialises merges across processes
///   fragments/<run id>/<scenario>.json  one per scenario, written atomically
/// ```
/// Stale-fragment policy: the first fragment a process writes removes the
/// fragment folders of *other* runs, and a merge reads only its own run's
/// folder, so scenarios of an earlier run never leak into the report. Every
/// process (one per test under `swift test --parallel`) merges at the end of
/// its bundle while holding the lock, so the last one to finish writes the
/// complete report. Running two different runs into one directory at the
/// same time is not supported: give them separate `BDD_REPORT_DIR`s.
final class ReportStore: @unchecked Sendable {
    let directory: URL
    let runID: String
    private let state = Locked((prepared: false, written: 0))

    init(directory: URL, runID: String) {
        self.directory = directory
        self.runID = runID
    }

    var fragmentsRoot: URL { directory.appendingPathComponent("fragments", isDirectory: true) }
    var runDirectory: URL { fragmentsRoot.appendingPathComponent(runID, isDirectory: true) }
    var livingDocURL: URL { directory.appendingPathComponent("LIVING-DOC.md") }
    var junitURL: URL { directory.appendingPathComponent("junit.xml") }
    var wroteFragments: Bool { state.withLock { $0.written > 0 } }

    // MARK: Fragments

    func write(_ report: ScenarioReport) throws {
        try prepareIfNeeded()
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(report)
        try AtomicFile.write(data, to: runDirectory.appendingPathComponent(Self.fragmentName(for: report)))
        state.withLock { $0.written += 1 }
    }

    /// `<Class>--<test name>-<hash>.json`: readable, and unique even when two
    /// names sanitise to the same text.
    static func fragmentName(for report: ScenarioReport) -> String {
        let key = report.specClass + "/" + report.testName
        let readable = String(
            key.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "_" }.prefix(80))
        return "\(readable)-\(StableHash.hex(key)).json"
    }

    private func prepareIfNeeded() throws {
        let needed = state.withLock { state -> Bool in
            defer { state.prepared = true }
            return !state.prepared
        }
        guard needed else { return }
        let files = FileManager.default
        try files.createDirectory(at: runDirectory, withIntermediateDirectories: true)
        let runs = (try? files.contentsOfDirectory(atPath: fragmentsRoot.path)) ?? []
        for run in runs where run != runID {
            try? files.removeItem(at: fragmentsRoot.appendingPathComponent(run))
        }
    }

    func readFragments() -> (reports: [ScenarioReport], problems: [String]) {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: runDirectory.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
        var reports: [ScenarioReport] = []
        var problems: [String] = []
        for name in names {
            let url = runDirectory.appendingPathComponent(name)
            do {
                let report = try decoder.decode(ScenarioReport.self, from: Data(contentsOf: url))
                if report.runID == runID { reports.append(report) }
            } catch {
                problems.append("skipped unreadable fragment \(url.path): \(error)")
            }
        }
        return (reports, problems)
    }

    // MARK: Merge

    /// Rewrites `LIVING-DOC.md` and `junit.xml` from every fragment of this run.
    @discardableResult
    func merge(generatedAt: Date = Date()) throws -> [ScenarioReport] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try FileLock(url: directory.appendingPathComponent(".merge.lock")).withLock {
            let (reports, problems) = readFragments()
            for problem in problems { SpecSettings.warn(problem) }
            let ordered = ReportOrdering.sorted(reports)
            let context = ReportContext(
                runID: runID, generatedAt: generatedAt, tagFilter: SpecSettings.tagFilter.summary)
            try AtomicFile.write(Data(LivingDocRenderer.render(ordered, context: context).utf8), to: livingDocURL)
            try AtomicFile.write(Data(JUnitRenderer.render(ordered, context: context).utf8), to: junitURL)
            return ordered
        }
    }
}

/// What a merged report says about the run as a whole.
struct ReportContext: Sendable {
    var runID: String
    var generatedAt: Date
    var tagFilter: String
}

enum ReportOrdering {
    /// Spec classes alphabetically, scenarios in declaration order.
    static func sorted(_ reports: [ScenarioReport]) -> [ScenarioReport] {
        reports.sorted {
            ($0.specClass, $0.featureIndex, $0.ordinal, $0.testName)
                < ($1.specClass, $1.featureIndex, $1.ordinal, $1.testName)
        }
    }
}

/// Write to a temporary file in the same folder, then rename: readers see the
/// old file or the new one, never half of one.
enum AtomicFile {
    static func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(
            ".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        do {
            try data.write(to: temporary)
            guard rename(temporary.path, url.path) == 0 else {
                throw ReportWriteError(path: url.path, reason: String(cString: strerror(errno)))
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}

struct ReportWriteError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "could not write \(path): \(reason)" }
}

/// An advisory whole-file lock (`flock`) shared by every test process.
struct FileLock {
    let url: URL

    func withLock<Result>(_ body: () throws -> Result) throws -> Result {
        let descriptor = open(url.path, O_CREAT | O_RDWR, 0o644)
        guard descriptor >= 0 else {
            throw ReportWriteError(path: url.path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw ReportWriteError(path: url.path, reason: "lock failed: \(String(cString: strerror(errno)))")
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}

/// FNV-1a: stable across processes and platforms (Swift's `Hasher` is seeded per process).
enum StableHash {
    static func hex(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
