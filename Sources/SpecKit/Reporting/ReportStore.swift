import Foundation
import SpecReporting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The report directory: one record per finished scenario, and the merged
/// `LIVING-DOC.md`, `junit.xml` and `report.html`.
///
/// ```
/// <BDD_REPORT_DIR>/
///   LIVING-DOC.md, junit.xml, report.html   merged; each rewritten atomically (temp file + rename)
///   .merge.lock                             serialises merges across processes (flock)
///   fragments/<run id>/<pid>-<nonce>.jsonl  this process's scenario fragments, one JSON line each
/// ```
/// Each scenario's fragment is one JSON line appended with a single `write(2)`
/// the moment its test finishes, to a file only this process writes. That
/// survives a crash of a later test (a torn last line is skipped with a
/// warning) and costs microseconds, where a file per scenario costs 1–2 ms
/// of file-system work each on a busy CI disk (10,000 scenarios: 10–25 s).
///
/// Stale-fragment policy: the first fragment a process writes removes the
/// fragment folders of *other* runs, and a merge reads only its own run's
/// folder, so scenarios of an earlier run never leak into the report. Every
/// process (one per test under `swift test --parallel`) merges when its
/// bundle finishes while holding the lock, so the last one to finish writes
/// the complete report. A scenario recorded twice in one run (run again by
/// hand with the same `BDD_RUN_ID`) appears once, with its latest outcome.
/// Two different runs writing into one directory at the same time are not
/// supported: give them separate `BDD_REPORT_DIR`s.
final class ReportStore: @unchecked Sendable {
    let directory: URL
    let runID: String
    private struct State {
        var journal: Int32 = -1
        var journalName: String?
        /// This process's fragments, kept so a merge need not decode them again.
        var written: [ScenarioReport] = []
    }
    private let state = Locked(State())
    init(directory: URL, runID: String) {
        self.directory = directory
        self.runID = runID
    }

    deinit {
        let descriptor = state.withLock { $0.journal }
        if descriptor >= 0 { close(descriptor) }
    }

    var fragmentsRoot: URL { directory.appendingPathComponent("fragments", isDirectory: true) }
    var runDirectory: URL { fragmentsRoot.appendingPathComponent(runID, isDirectory: true) }
    var livingDocURL: URL { directory.appendingPathComponent("LIVING-DOC.md") }
    var junitURL: URL { directory.appendingPathComponent("junit.xml") }
    var htmlReportURL: URL { directory.appendingPathComponent("report.html") }
    /// Every scenario the report shows, one JSON line each: what a filtered run merges into.
    var scenariosURL: URL { directory.appendingPathComponent("scenarios.jsonl") }
    var wroteFragments: Bool { state.withLock { !$0.written.isEmpty } }

    // MARK: Fragments

    /// Appends the scenario's fragment to this process's journal.
    func write(_ report: ScenarioReport) throws {
        let line = FragmentEncoder.line(for: report)
        try state.withLock { state in
            if state.journal < 0 { (state.journal, state.journalName) = try openJournal() }
            try Self.append(line, to: state.journal, path: runDirectory.path)
            state.written.append(report)
        }
    }

    private func openJournal() throws -> (Int32, String) {
        let files = FileManager.default
        try files.createDirectory(at: runDirectory, withIntermediateDirectories: true)
        for run in (try? files.contentsOfDirectory(atPath: fragmentsRoot.path)) ?? [] where run != runID {
            try? files.removeItem(at: fragmentsRoot.appendingPathComponent(run))
        }
        let name = "\(getpid())-\(UInt32.random(in: 0...UInt32.max)).jsonl"
        let path = runDirectory.appendingPathComponent(name).path
        let descriptor = open(path, O_CREAT | O_WRONLY | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ReportWriteError(path: path, reason: String(cString: strerror(errno)))
        }
        return (descriptor, name)
    }

    private static func append(_ data: Data, to descriptor: Int32, path: String) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw ReportWriteError(path: path, reason: String(cString: strerror(errno)))
                }
                offset += written
            }
        }
    }

    /// Every fragment of this run; the latest wins when a scenario appears twice.
    func readFragments() -> (reports: [ScenarioReport], problems: [String]) {
        let (own, ownName) = state.withLock { ($0.written, $0.journalName) }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: runDirectory.path)) ?? [])
            .filter { $0.hasSuffix(".jsonl") && $0 != ownName }.sorted()
        var latest: [String: ScenarioReport] = [:]
        var problems: [String] = []
        func keep(_ record: ScenarioReport) {
            let key = record.specClass + "/" + record.testName
            if let existing = latest[key], existing.finishedAt > record.finishedAt { return }
            latest[key] = record
        }
        for record in own { keep(record) }
        for name in names {
            let url = runDirectory.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: url) else {
                problems.append("could not read fragment file \(url.path)")
                continue
            }
            let (records, damaged) = FragmentReader.decode(data, source: url.path)
            problems += damaged
            for record in records where record.runID == runID { keep(record) }
        }
        return (Array(latest.values), problems)
    }

    /// The scenarios of the previous report (empty when there is none or it is unreadable).
    func readBaseline() -> [ScenarioReport] {
        guard let data = try? Data(contentsOf: scenariosURL), !data.isEmpty else { return [] }
        let (reports, problems) = FragmentReader.decode(data, source: scenariosURL.path)
        return problems.isEmpty ? reports : []
    }

    /// This run's reports replace the baseline's reports of the same scenarios.
    static func overlay(_ reports: [ScenarioReport], on baseline: [ScenarioReport]) -> [ScenarioReport] {
        let fresh = Set(reports.map { $0.specClass + "/" + $0.testName })
        return baseline.filter { !fresh.contains($0.specClass + "/" + $0.testName) } + reports
    }

    /// `a\nb\n` → `[a,b]`: JSON Lines as one JSON array.
    static func jsonArray(ofLines data: Data) -> Data {
        FragmentReader.jsonArray(ofLines: data)
    }

    // MARK: Merge

    /// Rewrites `LIVING-DOC.md` and `junit.xml` from every fragment of this run. A
    /// partial run (`--filter`, a test name, `BDD_TAGS`, `BDD_SCENARIO`) updates the
    /// scenarios it ran and keeps the rest of the previous report; a full run replaces it.
    @discardableResult
    func merge(generatedAt: Date = Date(), partial: Bool = RunScope.isPartial(), announce: Bool = true) throws
        -> [ScenarioReport]
    {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try FileLock(url: directory.appendingPathComponent(".merge.lock")).withLock {
            var (reports, problems) = readFragments()
            // A merge that announces nothing (a test's) prints no warning either: the caller reads `problems`.
            if announce { for problem in problems { SpecSettings.warn(problem) } }
            if partial { reports = Self.overlay(reports, on: readBaseline()) }
            let ordered = ReportOrdering.sorted(reports)
            try AtomicFile.write(try FragmentReader.jsonLines(ordered), to: scenariosURL)
            let context = ReportContext(
                runID: runID, generatedAt: generatedAt, tagFilter: SpecSettings.tagFilter.summary)
            try AtomicFile.write(Data(LivingDocRenderer.render(ordered, context: context).utf8), to: livingDocURL)
            try AtomicFile.write(Data(JUnitRenderer.render(ordered, context: context).utf8), to: junitURL)
            try AtomicFile.write(Data(HTMLReportRenderer.render(ordered, context: context).utf8), to: htmlReportURL)
            if announce {
                print(
                    "SpecKit: living document \(livingDocURL.path), JUnit \(junitURL.path), HTML \(htmlReportURL.path) "
                        + "(\(ordered.count) scenario\(ordered.count == 1 ? "" : "s")\(partial ? ", this run's merged into the previous report" : ""))"
                )
            }
            return ordered
        }
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif

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

/// Whether this process runs a selection of the tests rather than all of them.
enum RunScope {
    /// Options of the XCTest and Swift Testing runners that take a value.
    private static let valued: Set<String> = [
        "--testing-library", "--attachments-path", "--experimental-attachments-path", "--xunit-output",
        "--event-stream-output-path", "--experimental-event-stream-output", "--event-stream-version",
        "--experimental-event-stream-version", "--configuration-path", "--experimental-configuration-path",
        "--repeat-until", "--repetitions", "--experimental-maximum-parallelization-width",
    ]

    /// A test name, `--filter`/`--skip`, `BDD_TAGS` or `BDD_SCENARIO` selects part of the run
    /// (a shard, `BDD_SHARD`, is never partial).
    static func isPartial(
        arguments: [String] = CommandLine.arguments, environment: [String: String] = SpecSettings.environment
    ) -> Bool {
        // A shard's report is exactly its shard's scenarios, whatever else selects: `speckit merge`
        // then never meets a scenario of an earlier run (or of another shard) in it.
        if !(environment["BDD_SHARD"] ?? "").isEmpty { return false }
        for name in ["BDD_TAGS", "BDD_SCENARIO"] where !(environment[name] ?? "").isEmpty { return true }
        var rest = arguments.dropFirst()[...]
        while let argument = rest.first {
            rest = rest.dropFirst()
            if argument == "--filter" || argument == "--skip" { return true }
            if valued.contains(argument) {
                rest = rest.dropFirst()
                continue
            }
            if argument.hasPrefix("-") { continue }
            return true // XCTest's selected test names (one per process under --parallel)
        }
        return false
    }
}
