import Foundation

/// Renders `junit.xml`: one `<testsuite>` per spec class, one `<testcase>` per
/// scenario, real `<skipped/>` and `<failure message=…>` with the full text
/// (SwiftPM's `--xunit-output` shows skips as passes and failures as "failure").
public enum JUnitRenderer {
    public static func render(_ reports: [ScenarioReport], context: ReportContext) -> String {
        let all = ReportTally(reports)
        var out = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        out.append(
            "<testsuites name=\"SpecKit\" tests=\"\(reports.count)\" failures=\"\(all.failed)\" errors=\"0\" "
                + "skipped=\"\(all.skipped + all.pending)\" time=\"\(seconds(reports.map(\.duration).reduce(0, +)))\">")
        var suites: [(String, [ScenarioReport])] = []
        for report in reports {
            if suites.last?.0 == report.specClass {
                suites[suites.count - 1].1.append(report)
            } else {
                suites.append((report.specClass, [report]))
            }
        }
        for (name, cases) in suites {
            let tally = ReportTally(cases)
            out.append(
                "  <testsuite name=\"\(escape(name))\" tests=\"\(cases.count)\" failures=\"\(tally.failed)\" "
                    + "errors=\"0\" skipped=\"\(tally.skipped + tally.pending)\" "
                    + "time=\"\(seconds(cases.map(\.duration).reduce(0, +)))\">")
            for report in cases {
                out += testCase(report)
            }
            out.append("  </testsuite>")
        }
        out.append("</testsuites>")
        return out.joined(separator: "\n") + "\n"
    }

    private static func testCase(_ report: ScenarioReport) -> [String] {
        let open =
            "    <testcase classname=\"\(escape(report.specClass))\" name=\"\(escape(report.testName))\" "
            + "time=\"\(seconds(report.duration))\" file=\"\(escape(report.file))\" line=\"\(report.line)\""
        var body: [String] = []
        switch report.status {
        case .pending:
            body.append("      <skipped message=\"\(escape("pending: " + (report.reason ?? "")))\"/>")
        case .skipped:
            body.append("      <skipped message=\"\(escape(report.reason ?? "skipped"))\"/>")
        case .failed:
            let first = report.failures.first?.message ?? "failed"
            let text = report.failures.map { "\($0.file):\($0.line): \($0.message)" }.joined(separator: "\n")
            body.append(
                "      <failure message=\"\(escape(first))\" type=\"failure\">\(escape(text.isEmpty ? first : text, attribute: false))</failure>"
            )
        case .passed:
            break
        }
        if !report.steps.isEmpty {
            let steps = report.steps.map { step -> String in
                let mark = step.status == .passed ? "✓" : step.status == .failed ? "✗" : "skipped"
                return "\(mark) \(step.keyword) \(step.text)"
            }
            body.append("      <system-out>\(escape(steps.joined(separator: "\n"), attribute: false))</system-out>")
        }
        if body.isEmpty { return [open + "/>"] }
        return [open + ">"] + body + ["    </testcase>"]
    }

    /// `0.012` (three decimals), without `String(format:)`, which is slow on Linux.
    static func seconds(_ value: Double) -> String {
        let milliseconds = Int((max(0, value) * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// Escapes markup and replaces characters XML 1.0 cannot carry at all.
    public static func escape(_ text: String, attribute: Bool = true) -> String {
        MarkupEscaping.escape(text) { scalar, out in
            switch scalar {
            case "'": out += "&apos;"
            case "\n": out += attribute ? "&#10;" : "\n"
            case "\r": out += "&#13;"
            case "\t": out += attribute ? "&#9;" : "\t"
            default:
                let value = scalar.value
                let allowed = value >= 0x20 && !(0xD800...0xDFFF).contains(value) && value != 0xFFFE && value != 0xFFFF
                out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
    }
}
