import OpenAPI

/// One finding of `stubserver check`: a stub that says something the API document does not
/// (drift), or something the check could not decide or that is merely undeclared (a warning;
/// `--strict` counts warnings as drift).
public struct ContractFinding: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable {
        case drift, warning
        /// Said for the record, never a failure: how a template was checked, drift a stub is
        /// expected to have (`--expect-drift`).
        case note
    }

    public var severity: Severity
    /// The stub file as the user named it.
    public var file: String
    /// JSON path in the stub file (`[3].response.json.stories[0].vote_count`).
    public var path: String
    public var position: SourcePosition?
    /// The stub (`Stubs/pages_conf.json#1`).
    public var stub: String
    public var message: String

    public init(severity: Severity, file: String, path: String, position: SourcePosition?, stub: String, message: String) {
        self.severity = severity
        self.file = file
        self.path = path
        self.position = position
        self.stub = stub
        self.message = message
    }

    /// `Stubs/pages_conf.json:12:9: drift: [1].request.queries.pages: …`
    public var description: String {
        let place = position.map { "\(file):\($0.line):\($0.column)" } ?? file
        return "\(place): \(severity.rawValue): \(path.isEmpty ? "" : path + ": ")\(message)"
    }
}

/// How many stubs stand for one operation of the API.
public struct ContractCoverageRow: Sendable, Equatable {
    public var method: String
    public var path: String
    /// The stubs (`file#index`) that answer requests of this operation.
    public var stubs: [String]
}

/// The result of checking a configuration's stubs against an OpenAPI document.
public struct ContractReport: Sendable {
    public var document: String
    public var findings: [ContractFinding]
    public var coverage: [ContractCoverageRow]
    public var stubsChecked: Int

    public var drift: [ContractFinding] { findings.filter { $0.severity == .drift } }
    public var warnings: [ContractFinding] { findings.filter { $0.severity == .warning } }

    public var notes: [ContractFinding] { findings.filter { $0.severity == .note } }

    /// Drift, or (with `strict`) any warning.
    public func fails(strict: Bool) -> Bool { strict ? !(drift.isEmpty && warnings.isEmpty) : !drift.isEmpty }

    /// The report for people: findings grouped by file in file and line order, then coverage.
    public func text(strict: Bool) -> String {
        var out = ""
        var files: [String] = []
        for finding in findings where !files.contains(finding.file) { files.append(finding.file) }
        for file in files {
            out += file + "\n"
            for finding in findings where finding.file == file {
                let place = finding.position.map { "\($0.line):\($0.column)" } ?? "-"
                let severity = strict && finding.severity == .warning ? "drift (strict)" : finding.severity.rawValue
                out += "  \(place)  \(severity): \(finding.path.isEmpty ? "" : finding.path + ": ")\(finding.message)\n"
            }
        }
        let covered = coverage.filter { !$0.stubs.isEmpty }.count
        out += "\nCoverage: \(covered) of \(coverage.count) operations of \(document) have stubs\n"
        let methodWidth = max(6, coverage.map(\.method.count).max() ?? 0)
        let pathWidth = max(4, coverage.map(\.path.count).max() ?? 0)
        out += "  " + pad("METHOD", methodWidth) + "  " + pad("PATH", pathWidth) + "  STUBS\n"
        for row in coverage {
            out +=
                "  " + pad(row.method, methodWidth) + "  " + pad(row.path, pathWidth) + "  "
                + (row.stubs.isEmpty ? "0  (no stub)" : String(row.stubs.count)) + "\n"
        }
        let driftCount = strict ? drift.count + warnings.count : drift.count
        let warningCount = strict ? 0 : warnings.count
        // A clean run prints no "warning" word (CI's quiet-run check reads `make test`'s log).
        let warningText = warningCount == 0 ? "" : ", \(warningCount) warning\(warningCount == 1 ? "" : "s")"
        out += "\n\(stubsChecked) stubs checked: \(driftCount) drift\(warningText), \(notes.count) note\(notes.count == 1 ? "" : "s")\n"
        return out
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// The report as JSON for tools: `{"document", "stubsChecked", "findings": […], "coverage": […]}`.
    public func json(strict: Bool) -> String {
        var findingsJSON: [JSONValue] = []
        for finding in findings {
            var object: JSONObject = [
                "severity": .string(strict && finding.severity == .warning ? "drift" : finding.severity.rawValue),
                "file": .string(finding.file), "path": .string(finding.path),
                "stub": .string(finding.stub), "message": .string(finding.message),
            ]
            if let position = finding.position {
                object.set("line", .number(JSONNumber(position.line)))
                object.set("column", .number(JSONNumber(position.column)))
            }
            findingsJSON.append(.object(object))
        }
        let coverageJSON: [JSONValue] = coverage.map { row in
            ["method": .string(row.method), "path": .string(row.path), "stubs": .array(row.stubs.map(JSONValue.string))]
        }
        let report: JSONValue = [
            "document": .string(document), "stubsChecked": .number(JSONNumber(stubsChecked)), "fails": .bool(fails(strict: strict)),
            "findings": .array(findingsJSON), "coverage": .array(coverageJSON),
        ]
        return report.compactText
    }
}
