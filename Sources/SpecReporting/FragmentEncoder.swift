import Foundation
// Strings that need escapes go through the package's one JSON escaper.
import RehearsalJSON

/// Writes a `ScenarioReport` as one line of JSON, readable by its synthesized
/// `Decodable`. Hand-written because it runs once per scenario in debug-built
/// test binaries, where `JSONEncoder`'s generic `Codable` path was the largest
/// single cost of a 10,000-scenario run.
public struct FragmentEncoder {
    private var out = ""

    /// The fragment of `report`: one line of JSON ending in a newline.
    public static func line(for report: ScenarioReport) -> Data {
        var encoder = FragmentEncoder()
        encoder.out.reserveCapacity(1024)
        encoder.report(report)
        encoder.out += "\n"
        return Data(encoder.out.utf8)
    }

    private mutating func report(_ report: ScenarioReport) {
        open()
        key("formatVersion"); number(report.formatVersion); comma()
        key("runID"); string(report.runID); comma()
        key("specClass"); string(report.specClass); comma()
        key("feature"); group(report.feature); comma()
        key("featureIndex"); number(report.featureIndex); comma()
        key("path"); array(report.path) { $0.group($1) }; comma()
        key("keyword"); string(report.keyword); comma()
        key("title"); string(report.title); comma()
        key("testName"); string(report.testName); comma()
        key("tags"); array(report.tags) { $0.string($1) }; comma()
        if let example = report.example {
            key("example")
            array(example) { encoder, field in
                encoder.open()
                encoder.key("name"); encoder.string(field.name); encoder.comma()
                encoder.key("value"); encoder.string(field.value)
                encoder.close()
            }
            comma()
        }
        key("ordinal"); number(report.ordinal); comma()
        key("status"); string(report.status.rawValue); comma()
        if let reason = report.reason { key("reason"); string(reason); comma() }
        key("duration"); number(report.duration); comma()
        key("steps"); array(report.steps) { $0.step($1) }; comma()
        key("failures")
        array(report.failures) { encoder, failure in
            encoder.open()
            encoder.key("message"); encoder.string(failure.message); encoder.comma()
            encoder.key("file"); encoder.string(failure.file); encoder.comma()
            encoder.key("line"); encoder.number(failure.line)
            encoder.close()
        }
        comma()
        key("file"); string(report.file); comma()
        key("line"); number(report.line); comma()
        key("finishedAt"); number(report.finishedAt.timeIntervalSince1970)
        if let shard = report.shard { comma(); key("shard"); string(shard) }
        if let snapshots = report.snapshots {
            comma()
            key("snapshots"); array(snapshots) { $0.snapshot($1) }
        }
        close()
    }

    private mutating func snapshot(_ record: SnapshotRecord) {
        open()
        key("name"); string(record.name); comma()
        key("identifier"); string(record.identifier); comma()
        key("path"); string(record.path); comma()
        key("outcome"); string(record.outcome.rawValue); comma()
        if let actual = record.actual { key("actual"); string(actual); comma() }
        if let reference = record.reference { key("reference"); string(reference); comma() }
        if let summary = record.summary { key("summary"); string(summary); comma() }
        if let screen = record.screen {
            key("screen")
            open()
            key("language"); string(screen.language); comma()
            key("rightToLeft"); out += screen.rightToLeft ? "true" : "false"; comma()
            key("device"); string(screen.device); comma()
            key("orientation"); string(screen.orientation); comma()
            key("columns"); number(screen.columns); comma()
            key("rows"); number(screen.rows)
            close()
            comma()
        }
        key("line"); number(record.line)
        close()
    }

    private mutating func group(_ group: ScenarioReport.Group) {
        open()
        key("kind"); string(group.kind); comma()
        key("title"); string(group.title); comma()
        if let narrative = group.narrative { key("narrative"); string(narrative); comma() }
        key("tags"); array(group.tags) { $0.string($1) }
        close()
    }

    private mutating func step(_ step: StepResult) {
        open()
        key("keyword"); string(step.keyword); comma()
        key("text"); string(step.text); comma()
        key("status"); string(step.status.rawValue); comma()
        key("duration"); number(step.duration); comma()
        key("file"); string(step.file); comma()
        key("line"); number(step.line); comma()
        if let failure = step.failure { key("failure"); string(failure); comma() }
        if let depth = step.depth { key("depth"); number(depth); comma() }
        if let table = step.table {
            key("table")
            array(table) { encoder, row in encoder.array(row) { $0.string($1) } }
            comma()
        }
        if let docString = step.docString { key("docString"); string(docString); comma() }
        key("background"); out += step.background ? "true" : "false"
        close()
    }

    // MARK: Tokens

    private mutating func open() { out += "{" }
    private mutating func close() { out += "}" }
    private mutating func comma() { out += "," }

    private mutating func key(_ name: String) {
        out += "\""
        out += name
        out += "\":"
    }

    private mutating func number(_ value: Int) {
        out += String(value)
    }

    private mutating func number(_ value: Double) {
        out += value.isFinite ? "\(value)" : "0"
    }

    private mutating func array<Element>(_ items: [Element], _ write: (inout FragmentEncoder, Element) -> Void) {
        out += "["
        var first = true
        for item in items {
            if !first { comma() }
            first = false
            write(&self, item)
        }
        out += "]"
    }

    private mutating func string(_ text: String) {
        if Self.needsEscaping(text) {
            JSONWriter.writeString(text, into: &out)
        } else {
            out += "\""
            out += text
            out += "\""
        }
    }

    /// Whether `text` holds bytes JSON must escape.
    static func needsEscaping(_ text: String) -> Bool {
        CStringScan.contains(anyOf: specials, in: text)
    }

    /// `"`, `\` and control characters, NUL-terminated. The controls are a typed range, not a
    /// mapped `Int` range: with Foundation's `+` overloads in scope, solving that took ~750 ms.
    private static let specials: [CChar] = "\"\\".utf8.map { CChar(bitPattern: $0) } + (1 as CChar..<0x20) + [0]
}
