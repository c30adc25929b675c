import Foundation

/// Reads report fragments: JSON Lines of ``ScenarioReport`` (a process's journal under
/// `fragments/<run>/`, or a report's `scenarios.jsonl`).
///
/// ```swift
/// let (reports, problems) = FragmentReader.decode(try Data(contentsOf: url), source: url.path)
/// ```
public enum FragmentReader {
    /// Every readable record of `data`; a damaged line (a torn last write) is skipped and named in
    /// `problems` as `skipped an unreadable fragment at <source>:<line>`.
    public static func decode(_ data: Data, source: String) -> (reports: [ScenarioReport], problems: [String]) {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        // One decode of the whole file is much faster than one per line;
        // line by line only when something in it is damaged.
        if let all = try? decoder.decode([ScenarioReport].self, from: jsonArray(ofLines: data)) {
            return (all, [])
        }
        var records: [ScenarioReport] = []
        var problems: [String] = []
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where !line.isEmpty {
            do {
                records.append(try decoder.decode(ScenarioReport.self, from: Data(line)))
            } catch {
                problems.append("skipped an unreadable fragment at \(source):\(index + 1)")
            }
        }
        return (records, problems)
    }

    /// `a\nb\n` → `[a,b]`: JSON Lines as one JSON array.
    public static func jsonArray(ofLines data: Data) -> Data {
        var bytes = [UInt8](data)
        while bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        bytes.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices where buffer[index] == UInt8(ascii: "\n") {
                buffer[index] = UInt8(ascii: ",")
            }
        }
        var array = Data(capacity: bytes.count + 2)
        array.append(UInt8(ascii: "["))
        array.append(contentsOf: bytes)
        array.append(UInt8(ascii: "]"))
        return array
    }

    /// `reports` as JSON Lines (`scenarios.jsonl`), one record per line.
    public static func jsonLines(_ reports: [ScenarioReport]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        var lines = Data()
        for report in reports {
            lines.append(try encoder.encode(report))
            lines.append(UInt8(ascii: "\n"))
        }
        return lines
    }
}
