import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a merged report says about the run as a whole.
public struct ReportContext: Sendable {
    public var runID: String
    public var generatedAt: Date
    public var tagFilter: String
    /// `n` when the report was merged from `n` shards (`speckit merge`); `nil` otherwise.
    public var shardCount: Int?

    public init(runID: String, generatedAt: Date, tagFilter: String, shardCount: Int? = nil) {
        self.runID = runID
        self.generatedAt = generatedAt
        self.tagFilter = tagFilter
        self.shardCount = shardCount
    }

    /// ``generatedAt`` as the HTML report and the living doc print it: `2026-11-27 01:45:11 UTC`.
    var generatedAtText: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
        return formatter.string(from: generatedAt)
    }
}

public enum ReportOrdering {
    /// Spec classes alphabetically, scenarios in declaration order.
    public static func sorted(_ reports: [ScenarioReport]) -> [ScenarioReport] {
        // Sorting indices avoids copying the large report values on every swap.
        let order = reports.indices.sorted { i, j in
            let a = reports[i]
            let b = reports[j]
            if a.specClass != b.specClass { return a.specClass < b.specClass }
            if a.featureIndex != b.featureIndex { return a.featureIndex < b.featureIndex }
            if a.ordinal != b.ordinal { return a.ordinal < b.ordinal }
            return a.testName < b.testName
        }
        return order.map { reports[$0] }
    }
}

/// Counts by status: `✅ 3 passed · ❌ 1 failed · 🚧 1 pending`.
public struct ReportTally: Sendable, Equatable {
    public var passed = 0, failed = 0, skipped = 0, pending = 0

    public init(_ reports: [ScenarioReport]) {
        for report in reports {
            switch report.status {
            case .passed: passed += 1
            case .failed: failed += 1
            case .skipped: skipped += 1
            case .pending: pending += 1
            }
        }
    }

    public var summary: String {
        var parts = ["✅ \(passed) passed", "❌ \(failed) failed"]
        if pending > 0 { parts.append("🚧 \(pending) pending") }
        if skipped > 0 { parts.append("⏭ \(skipped) skipped") }
        return parts.joined(separator: " · ")
    }
}

/// Write to a temporary file in the same folder, then rename: readers see the
/// old file or the new one, never half of one.
package enum AtomicFile {
    package static func write(_ data: Data, to url: URL) throws {
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

package struct ReportWriteError: Error, CustomStringConvertible {
    package var path: String
    package var reason: String
    package var description: String { "could not write \(path): \(reason)" }

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// Paths below the current directory are shown relative to it (as SpecKit's messages do).
enum ReportDisplayPath {
    static func relativeToCurrentDirectory(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        let prefix = cwd.hasSuffix("/") ? cwd : cwd + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
