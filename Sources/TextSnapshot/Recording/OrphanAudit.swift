import Foundation

/// Finds snapshot files that no test touched: files in `<root>/<TestFile>/` folders of the roots a run
/// used that are not in the touched set. Hidden files (`.keep`, `.gitattributes`) are ignored.
///
/// After a full, unfiltered run the test bundle observer lists them; `TEXT_SNAPSHOT_STRICT=1` fails the
/// run and `TEXT_SNAPSHOT_PRUNE=1` deletes them (only when the run had no failures or skipped tests,
/// since a test that stopped early leaves its snapshots untouched).
public enum OrphanAudit {
    /// Untouched snapshot files under `roots`, sorted.
    public static func orphans(roots: [String], touched: Set<String>) -> [String] {
        let manager = FileManager.default
        let touched = Set(touched.map(standardized))
        var result: [String] = []
        for root in roots {
            guard let folders = try? manager.contentsOfDirectory(atPath: root) else { continue }
            for folder in folders where !folder.hasPrefix(".") {
                let folderPath = (root as NSString).appendingPathComponent(folder)
                var isDirectory: ObjCBool = false
                guard manager.fileExists(atPath: folderPath, isDirectory: &isDirectory), isDirectory.boolValue,
                    let files = try? manager.contentsOfDirectory(atPath: folderPath)
                else { continue }
                if usesSwiftTesting(root: root, folder: folder) { continue }
                for file in files where !file.hasPrefix(".") {
                    let path = standardized((folderPath as NSString).appendingPathComponent(file))
                    if !touched.contains(path) { result.append(path) }
                }
            }
        }
        return result.sorted()
    }

    /// `swift test` runs XCTest and Swift Testing in separate processes, so neither sees the
    /// files the other touched. A folder whose test file (`<root>/../<folder>.swift`) imports
    /// Testing may hold snapshots taken by Swift Testing tests: it is left out of the audit
    /// rather than risk reporting (or pruning) files that are in use.
    static func usesSwiftTesting(root: String, folder: String) -> Bool {
        let source = ((root as NSString).deletingLastPathComponent as NSString).appendingPathComponent(folder + ".swift")
        guard let text = try? String(contentsOfFile: source, encoding: .utf8) else { return false }
        return text.range(of: #"(?m)^\s*(@testable\s+)?import\s+Testing\b"#, options: .regularExpression) != nil
    }

    /// Deletes the given files; returns the ones deleted.
    @discardableResult
    public static func prune(_ paths: [String]) throws -> [String] {
        var removed: [String] = []
        for path in paths {
            try FileManager.default.removeItem(atPath: path)
            removed.append(path)
        }
        return removed
    }

    static func standardized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
