import Foundation

/// Renders `report.html`: one self-contained page per run with features → scenarios → steps
/// (status, durations, the failure at its step, data tables and doc strings), filters by tag and
/// status, and the gallery of the text snapshots the scenarios asserted (``HTMLReportGallery``).
/// It takes the same reports as ``LivingDocRenderer`` and ``JUnitRenderer``.
///
/// No external assets: the stylesheet and script are inlined and allowed by their hashes in a
/// Content-Security-Policy meta tag (no other script, style, font, image or connection), so the
/// page works offline from `file://`. Every value from the run is escaped (``HTMLText``); the
/// script never writes HTML.
///
/// ```swift
/// let html = HTMLReportRenderer.render(reports, context: ReportContext(runID: "ci-42", generatedAt: Date(), tagFilter: ""))
/// try AtomicFile.write(Data(html.utf8), to: directory.appendingPathComponent("report.html"))
/// ```
public enum HTMLReportRenderer {
    public static func render(_ reports: [ScenarioReport], context: ReportContext) -> String {
        let gallery = HTMLReportGallery(reports)
        let stylesheet = HTMLReportAssets.stylesheet + gallery.widthRules
        let script = HTMLReportAssets.script
        let policy =
            "default-src 'none'; style-src \(SHA256.cspSource(stylesheet)); script-src \(SHA256.cspSource(script)); "
            + "img-src data:; base-uri 'none'; form-action 'none'"
        let tally = ReportTally(reports)
        var out = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(policy)">
            <meta name="referrer" content="no-referrer">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Spec report · \(HTMLText.escape(summary(tally)))</title>
            <style>\(stylesheet)</style>
            </head>
            <body>
            <header><h1>Spec report</h1>
            <span class="muted">\(HTMLText.escape(context.generatedAtText)) · run \(HTMLText.escape(context.runID))\(
                context.tagFilter.isEmpty ? "" : " · BDD_TAGS " + HTMLText.escape(context.tagFilter))</span>
            <span id="tally">\(reports.count) scenario\(reports.count == 1 ? "" : "s"): \(HTMLText.escape(summary(tally)))</span></header>

            """
        out += filters(reports, tally: tally)
        out += "<main>\n"
        if reports.isEmpty { out += "<p class=\"empty\">No scenarios ran.</p>\n" }
        for (featureNumber, feature) in LivingDocRenderer.group(reports).enumerated() {
            out += self.feature(feature, number: featureNumber, gallery: gallery)
        }
        out += gallery.html
        out += "</main>\n<script>\(script)</script>\n</body>\n</html>\n"
        return out
    }

    // MARK: Filters

    private static func filters(_ reports: [ScenarioReport], tally: ReportTally) -> String {
        var out =
            "<nav class=\"filters\" aria-label=\"filters\">\n<div class=\"filter-group\" id=\"status-filter\"><span class=\"filter-label\">Status</span>\n"
        for (status, count) in [("passed", tally.passed), ("failed", tally.failed), ("pending", tally.pending), ("skipped", tally.skipped)]
        {
            out += "<label><input type=\"checkbox\" data-status=\"\(status)\" checked> \(status) (\(count))</label>\n"
        }
        out += "</div>\n"
        var counts: [String: Int] = [:]
        var order: [String] = []
        for report in reports {
            for tag in Set(report.tags).sorted() where !tag.isEmpty {
                if counts[tag] == nil { order.append(tag) }
                counts[tag, default: 0] += 1
            }
        }
        if !order.isEmpty {
            out += "<div class=\"filter-group\" id=\"tag-filter\"><span class=\"filter-label\">Tags</span>\n"
            for tag in order.sorted() {
                out +=
                    "<button type=\"button\" class=\"tag-button\" data-tag=\"\(HTMLText.escape(tag))\" aria-pressed=\"false\">@"
                    + "\(HTMLText.escape(tag)) (\(counts[tag] ?? 0))</button>\n"
            }
            out += "</div>\n"
        }
        out += "<span id=\"shown\">\(reports.count) of \(reports.count) scenarios shown</span>\n</nav>\n"
        return out
    }

    // MARK: Features and scenarios

    private static func feature(_ reports: [ScenarioReport], number: Int, gallery: HTMLReportGallery) -> String {
        let first = reports[0]
        var out =
            "<section class=\"feature\" id=\"feature-\(number + 1)\">\n<h2>Feature: \(HTMLText.escape(first.feature.title))"
            + tags(first.feature.tags) + "</h2>\n"
        if let narrative = first.feature.narrative, !narrative.isEmpty {
            out += "<p class=\"narrative\">\(HTMLText.escape(narrative))</p>\n"
        }
        out +=
            "<p class=\"meta\">\(HTMLText.escape(summary(ReportTally(reports)))) · \(HTMLText.escape(first.specClass)) · "
            + "\(HTMLText.escape(LivingDocRenderer.displayPath(first.file)))</p>\n"
        var currentPath: [ScenarioReport.Group]?
        var groupOpen = false
        for report in reports {
            if currentPath == nil || report.path != currentPath {
                if groupOpen { out += "</div>\n" }
                out += "<div class=\"path-group\">\n"
                groupOpen = true
                if !report.path.isEmpty {
                    let heading = report.path.map { "\(HTMLText.escape($0.kind)): \(HTMLText.escape($0.title))" }.joined(separator: " › ")
                    out += "<h3 class=\"path\">\(heading)\(tags(report.path.flatMap(\.tags)))</h3>\n"
                }
                currentPath = report.path
            }
            out += scenario(report, gallery: gallery)
        }
        if groupOpen { out += "</div>\n" }
        return out + "</section>\n"
    }

    private static func scenario(_ report: ScenarioReport, gallery: HTMLReportGallery) -> String {
        let status = report.status.rawValue
        var out =
            "<details class=\"scenario\" id=\"\(gallery.scenarioAnchor(report))\" data-status=\"\(status)\" "
            + "data-tags=\"\(HTMLText.escape(report.tags.joined(separator: " ")))\"\(report.status == .failed ? " open" : "")>\n"
        out +=
            "<summary><span class=\"badge \(status)\">\(status)</span> <span class=\"keyword\">"
            + "\(report.keyword == "it" ? "it" : "Scenario"):</span> <span class=\"title\">\(HTMLText.escape(report.title))</span>"
            + tags(report.tags)
        if report.status == .passed || report.status == .failed {
            out += " <span class=\"duration\">\(LivingDocRenderer.duration(report.duration))</span>"
        }
        out += "</summary>\n"
        if let reason = report.reason, !reason.isEmpty {
            out += "<p class=\"reason\">\(status): \(HTMLText.escape(reason))</p>\n"
        }
        if let example = report.example, !example.isEmpty {
            out +=
                "<p class=\"example\">Example: "
                + example.map { "\(HTMLText.escape($0.name)) = \(HTMLText.escape($0.value))" }.joined(separator: ", ") + "</p>\n"
        }
        if !report.steps.isEmpty {
            out += "<ol class=\"steps\">\n" + report.steps.map { step($0, in: report) }.joined() + "</ol>\n"
        }
        let stepFailures = Set(report.steps.compactMap(\.failure))
        for failure in report.failures where !stepFailures.contains(failure.message) {
            out += failureBlock(failure.message, file: failure.file, line: failure.line)
        }
        out += gallery.links(for: report)
        return out + "</details>\n"
    }

    private static func step(_ step: StepResult, in report: ScenarioReport) -> String {
        let mark =
            switch step.status {
            case .passed: "✓"
            case .failed: "✗"
            case .skipped: "–"
            }
        var out =
            "<li class=\"step \(step.status.rawValue)\(step.depth.map { $0 > 0 ? " depth-\(min($0, 3))" : "" } ?? "")\">"
            + "<span class=\"mark\">\(mark)</span><span class=\"keyword\">\(HTMLText.escape(step.keyword))</span> "
            + HTMLText.escape(step.text)
        if step.background { out += " <span class=\"bg\">(background)</span>" }
        if step.status == .skipped { out += " <span class=\"bg\">(skipped)</span>" }
        if step.status != .skipped { out += " <span class=\"duration\">\(LivingDocRenderer.duration(step.duration))</span>" }
        if let table = step.table, !table.isEmpty { out += dataTable(table) }
        if let docString = step.docString { out += "<pre class=\"doc-string\">\(HTMLText.escape(docString))</pre>" }
        if let failure = step.failure {
            let line = report.failures.first { $0.message == failure }?.line ?? step.line
            out += failureBlock(failure, file: step.file, line: line)
        }
        return out + "</li>\n"
    }

    private static func failureBlock(_ message: String, file: String, line: Int) -> String {
        var out = "<pre class=\"failure\">\(HTMLText.escape(message))</pre>"
        if !file.isEmpty {
            out += "<div class=\"where\">at \(HTMLText.escape(LivingDocRenderer.displayPath(file))):\(line)</div>"
        }
        return out + "\n"
    }

    /// A step's data table, the first row as the header (ragged rows padded).
    static func dataTable(_ rows: [[String]]) -> String {
        let width = rows.map(\.count).max() ?? 0
        guard width > 0 else { return "" }
        func cells(_ row: [String], _ tag: String) -> String {
            (row + Array(repeating: "", count: width - row.count)).map { "<\(tag)>\(HTMLText.escape($0))</\(tag)>" }.joined()
        }
        return "<table class=\"data-table\"><thead><tr>\(cells(rows[0], "th"))</tr></thead><tbody>"
            + rows.dropFirst().map { "<tr>\(cells($0, "td"))</tr>" }.joined() + "</tbody></table>"
    }

    /// `3 passed · 1 failed · 1 pending`: the living document's tally without its emoji, which
    /// a browser without an emoji font draws as empty boxes.
    static func summary(_ tally: ReportTally) -> String {
        var parts = ["\(tally.passed) passed", "\(tally.failed) failed"]
        if tally.pending > 0 { parts.append("\(tally.pending) pending") }
        if tally.skipped > 0 { parts.append("\(tally.skipped) skipped") }
        return parts.joined(separator: " · ")
    }

    private static func tags(_ tags: [String]) -> String {
        tags.map { " <span class=\"tag\">@\(HTMLText.escape($0))</span>" }.joined()
    }
}
