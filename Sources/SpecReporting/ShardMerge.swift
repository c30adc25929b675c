import Foundation

/// Merges the reports of a sharded run (or of any runs) into one: what `speckit merge` does.
///
/// ```swift
/// let inputs = try ["shard-1", "shard-2"].map { try ReportInput.load(path: $0) }
/// let merged = try ShardMerge.merge(inputs, allowMixedRuns: false)
/// try ShardMerge.write(merged, to: URL(fileURLWithPath: "merged"))
/// ```
///
/// A merge refuses, with a message naming what is wrong: a missing shard (shards 1, 2 and 4 of 4),
/// shards of different sizes, sharded next to unsharded fragments, a scenario in two inputs, and
/// fragments of different runs (`BDD_RUN_ID`) unless `allowMixedRuns`.
public enum ShardMerge {
    public struct Merged: Sendable {
        /// In report order (spec classes alphabetically, scenarios in declaration order).
        public var reports: [ScenarioReport]
        /// The distinct run IDs, sorted.
        public var runIDs: [String]
        /// `n` when the inputs were the `n` shards of a run.
        public var shardCount: Int?
    }

    public static func merge(_ inputs: [ReportInput], allowMixedRuns: Bool) throws -> Merged {
        var owner: [String: (source: String, shard: String?)] = [:]
        var all: [ScenarioReport] = []
        var duplicates: [String] = []
        for input in inputs {
            for report in latestPerScenario(input.reports) {
                let key = report.identity
                if let first = owner[key] {
                    duplicates.append(
                        "\"\(key)\" is in \(first.source)\(shardNote(first.shard)) and in \(input.source)\(shardNote(report.shard))")
                    continue
                }
                owner[key] = (input.source, report.shard)
                all.append(report)
            }
        }
        guard !all.isEmpty else {
            throw MergeError(
                "no scenario reports in " + inputs.map(\.source).joined(separator: ", ")
                    + " (expected a report folder with scenarios.jsonl, a fragments folder, or .jsonl files)")
        }
        if !duplicates.isEmpty {
            throw MergeError(
                "\(duplicates.count) scenario\(duplicates.count == 1 ? " appears" : "s appear") twice; each belongs to one shard "
                    + "(was one shard run twice, or one folder given twice?):\n  "
                    + listed(duplicates))
        }
        let runs = Dictionary(grouping: all, by: \.runID)
        if runs.count > 1 && !allowMixedRuns {
            let described = runs.keys.sorted().map { run in
                let sources = Set(runs[run]!.compactMap { owner[$0.identity]?.source }).sorted()
                return "\(run) (\(runs[run]!.count) scenarios, in \(sources.joined(separator: ", ")))"
            }
            throw MergeError(
                "the fragments come from \(runs.count) different runs: \(described.joined(separator: "; ")); "
                    + "give every shard the same BDD_RUN_ID (on CI, the workflow run's id), or pass --allow-mixed-runs")
        }
        let shardCount = try checkShards(all, owner: owner)
        return Merged(reports: ReportOrdering.sorted(all), runIDs: runs.keys.sorted(), shardCount: shardCount)
    }

    /// Writes `scenarios.jsonl`, `LIVING-DOC.md`, `junit.xml` and `report.html` into `directory`
    /// (created when missing), each atomically, and returns their URLs.
    @discardableResult
    public static func write(_ merged: Merged, to directory: URL, generatedAt: Date = Date()) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let context = ReportContext(
            runID: merged.runIDs.joined(separator: ", "), generatedAt: generatedAt, tagFilter: "",
            shardCount: merged.shardCount)
        let files: [(String, Data)] = [
            ("scenarios.jsonl", try FragmentReader.jsonLines(merged.reports)),
            ("LIVING-DOC.md", Data(LivingDocRenderer.render(merged.reports, context: context).utf8)),
            ("junit.xml", Data(JUnitRenderer.render(merged.reports, context: context).utf8)),
            ("report.html", Data(HTMLReportRenderer.render(merged.reports, context: context).utf8)),
        ]
        var written: [URL] = []
        for (name, data) in files {
            let url = directory.appendingPathComponent(name)
            try AtomicFile.write(data, to: url)
            written.append(url)
        }
        return written
    }

    /// Within one input a scenario recorded twice (run again with the same run ID) counts once, its
    /// latest outcome, as in a single run's report.
    static func latestPerScenario(_ reports: [ScenarioReport]) -> [ScenarioReport] {
        var latest: [String: Int] = [:]
        var kept: [ScenarioReport] = []
        for report in reports {
            if let index = latest[report.identity] {
                if report.finishedAt >= kept[index].finishedAt { kept[index] = report }
            } else {
                latest[report.identity] = kept.count
                kept.append(report)
            }
        }
        return kept
    }

    private static func checkShards(
        _ reports: [ScenarioReport], owner: [String: (source: String, shard: String?)]
    ) throws -> Int? {
        var shards: [String: Shard] = [:]
        var unsharded = 0
        for report in reports {
            guard let text = report.shard else {
                unsharded += 1
                continue
            }
            if shards[text] != nil { continue }
            do {
                shards[text] = try Shard(parsing: text, setting: "shard")
            } catch {
                throw MergeError("\(owner[report.identity]?.source ?? "a fragment"): \(error)")
            }
        }
        guard !shards.isEmpty else { return nil }
        if unsharded > 0 {
            throw MergeError(
                "\(unsharded) scenario\(unsharded == 1 ? " comes" : "s come") from an unsharded run and the rest from shards "
                    + "(\(shards.keys.sorted().joined(separator: ", "))): merge the shards of one run only")
        }
        let counts = Set(shards.values.map(\.count))
        guard counts.count == 1, let count = counts.first else {
            throw MergeError(
                "the fragments come from runs split different ways: shards \(shards.keys.sorted().joined(separator: ", ")); "
                    + "merge the shards of one run only")
        }
        let present = Set(shards.values.map(\.index))
        let missing = (1...count).filter { !present.contains($0) }
        if !missing.isEmpty {
            let found = present.sorted().map(String.init).joined(separator: ", ")
            throw MergeError(
                "shard\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) of \(count) "
                    + "\(missing.count == 1 ? "is" : "are") missing (found shard\(present.count == 1 ? "" : "s") \(found) of \(count)); "
                    + "pass every shard's report folder (a shard that selected no scenario writes none: use fewer shards)")
        }
        return count
    }

    private static func shardNote(_ shard: String?) -> String {
        shard.map { " (shard \($0))" } ?? ""
    }

    private static func listed(_ lines: [String]) -> String {
        let shown = lines.prefix(10).joined(separator: "\n  ")
        return lines.count > 10 ? shown + "\n  … and \(lines.count - 10) more" : shown
    }
}

/// A merge that cannot give a truthful report.
public struct MergeError: Error, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The reports one command-line argument of `speckit merge` names.
public struct ReportInput: Sendable {
    /// The path as given, for messages.
    public var source: String
    public var reports: [ScenarioReport]
    /// Damaged lines that were skipped.
    public var problems: [String]

    public init(source: String, reports: [ScenarioReport], problems: [String] = []) {
        self.source = source
        self.reports = reports
        self.problems = problems
    }

    /// Largest fragment file read (a 10,000-scenario report is about 10 MB).
    public static let maximumFileSize = 512 * 1024 * 1024

    /// A report folder (`BDD_REPORT_DIR`: its `scenarios.jsonl`, the shard's merged report), any
    /// other folder (every `*.jsonl` below it, e.g. `fragments/<run>/`), or one `.jsonl` file.
    public static func load(path: String) throws -> ReportInput {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw MergeError("\(path): no such file or folder")
        }
        var paths: [String]
        if isDirectory.boolValue {
            let merged = (path as NSString).appendingPathComponent("scenarios.jsonl")
            if files.fileExists(atPath: merged) {
                paths = [merged]
            } else {
                let below = files.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
                paths = below.filter { $0.hasSuffix(".jsonl") }.sorted().map { (path as NSString).appendingPathComponent($0) }
                guard !paths.isEmpty else {
                    throw MergeError("\(path): no scenarios.jsonl and no .jsonl fragments in this folder")
                }
            }
        } else {
            paths = [path]
        }
        var input = ReportInput(source: path, reports: [])
        for file in paths {
            let size = (try? files.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            guard size <= maximumFileSize else {
                throw MergeError("\(file): \(size) bytes, larger than the \(maximumFileSize)-byte limit for a fragment file")
            }
            guard let data = files.contents(atPath: file) else { throw MergeError("\(file): could not be read") }
            let (reports, problems) = FragmentReader.decode(data, source: file)
            if reports.isEmpty && !data.isEmpty && !problems.isEmpty {
                throw MergeError("\(file): not a SpecKit report fragment file (no line is a scenario report)")
            }
            input.reports += reports
            input.problems += problems
        }
        return input
    }
}
