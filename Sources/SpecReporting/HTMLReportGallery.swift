/// The HTML report's snapshot gallery: per screen, a language × device grid of the text screens
/// the scenarios asserted, drawn at their real width in `ch`; a cell that failed (or was recorded)
/// is highlighted and shows the reference and the actual text side by side with invisible
/// characters made visible. Snapshots without a screen matrix (`.json`, `.lines`, …) are listed
/// under their test. Scenarios link to their snapshots and screens back to their scenarios.
struct HTMLReportGallery {
    private struct Entry {
        var record: SnapshotRecord
        var anchor: String
        var scenario: String
        var scenarioTitle: String
    }

    private struct Screen {
        var key: String
        var anchor: String
        var languages: [String] = []
        var devices: [String] = []
        /// device → `40×35`
        var gridSizes: [String: String] = [:]
        var cells: [String: Entry] = [:]
        var plain: [Entry] = []
        var scenarios: [(anchor: String, title: String)] = []
        var hasFailure = false
    }

    private var screens: [Screen] = []
    private var scenarioAnchors: [String: String] = [:]
    /// Per scenario anchor, the screens it asserted: (screen anchor, key, count, failing entries).
    private var linksByScenario: [String: [(screen: String, key: String, count: Int, failing: [Entry])]] = [:]
    private var widths: Set<Int> = []

    init(_ reports: [ScenarioReport]) {
        var screenIndex: [String: Int] = [:]
        var snapshotNumber = 0
        for (number, report) in reports.enumerated() {
            let scenario = "scenario-\(number + 1)"
            scenarioAnchors[Self.key(report)] = scenario
            var perScreen: [String: (count: Int, failing: [Entry])] = [:]
            var screenOrder: [String] = []
            for record in report.snapshots ?? [] {
                snapshotNumber += 1
                let entry = Entry(record: record, anchor: "snapshot-\(snapshotNumber)", scenario: scenario, scenarioTitle: report.title)
                let key = record.screenKey
                if screenIndex[key] == nil {
                    screenIndex[key] = screens.count
                    screens.append(Screen(key: key, anchor: "screen-\(screens.count + 1)"))
                }
                let index = screenIndex[key]!
                if let screen = record.screen {
                    if !screens[index].languages.contains(screen.language) { screens[index].languages.append(screen.language) }
                    if !screens[index].devices.contains(screen.device) { screens[index].devices.append(screen.device) }
                    screens[index].gridSizes[screen.device] = "\(screen.columns)×\(screen.rows)"
                    screens[index].cells[screen.language + "\u{0}" + screen.device] = entry
                    widths.insert(screen.columns)
                } else {
                    screens[index].plain.append(entry)
                }
                if record.outcome.isFailure { screens[index].hasFailure = true }
                if !screens[index].scenarios.contains(where: { $0.anchor == scenario }) {
                    screens[index].scenarios.append((scenario, report.title))
                }
                if perScreen[key] == nil { screenOrder.append(key) }
                perScreen[key, default: (0, [])].count += 1
                if record.outcome.isFailure { perScreen[key, default: (0, [])].failing.append(entry) }
            }
            linksByScenario[scenario] = screenOrder.map { key in
                (screens[screenIndex[key]!].anchor, key, perScreen[key]!.count, perScreen[key]!.failing)
            }
        }
    }

    private static func key(_ report: ScenarioReport) -> String { report.specClass + "/" + report.testName }

    /// The element id of a scenario: `scenario-3`.
    func scenarioAnchor(_ report: ScenarioReport) -> String {
        scenarioAnchors[Self.key(report)] ?? "scenario"
    }

    /// One CSS rule per grid width in the gallery (`.w40 { min-width: 40ch; }`): the page's policy
    /// allows no inline `style` attribute, so widths are classes.
    var widthRules: String {
        widths.sorted().map { ".w\($0) { min-width: \($0)ch; }\n" }.joined()
    }

    /// Under a scenario: the screens it asserted, with links to its failing cells.
    func links(for report: ScenarioReport) -> String {
        guard let links = linksByScenario[scenarioAnchor(report)], !links.isEmpty else { return "" }
        let items = links.map { link -> String in
            var text = "<a href=\"#\(link.screen)\">\(HTMLText.escape(link.key))</a> (\(link.count)"
            if !link.failing.isEmpty {
                text +=
                    ", <span class=\"bad\">\(link.failing.count) failing:</span> "
                    + link.failing.map { "<a class=\"bad\" href=\"#\($0.anchor)\">\(HTMLText.escape($0.record.identifier))</a>" }
                    .joined(separator: ", ")
            }
            return text + ")"
        }
        return "<p class=\"snapshot-links\">Snapshots: " + items.joined(separator: "; ") + "</p>\n"
    }

    /// The gallery section (empty when no scenario asserted a snapshot).
    var html: String {
        guard !screens.isEmpty else { return "" }
        let cells = screens.reduce(0) { $0 + $1.cells.count + $1.plain.count }
        let failing = screens.reduce(0) { sum, screen in
            sum + (Array(screen.cells.values) + screen.plain).filter { $0.record.outcome.isFailure }.count
        }
        var out =
            "<section class=\"gallery\" id=\"gallery\">\n<div class=\"gallery-head\"><h2>Snapshots</h2>"
            + "<span class=\"meta\">\(screens.count) screen\(screens.count == 1 ? "" : "s"), \(cells) snapshot\(cells == 1 ? "" : "s"), "
            + "\(failing) failing</span>"
            + "<label><input type=\"checkbox\" id=\"only-failing-cells\"> only failing</label>"
            + "<span class=\"legend\">in a diff: <span class=\"inv\">␣</span> a no-break or other unusual space, "
            + "<span class=\"inv\">⁞</span> a zero-width or direction mark, <span class=\"inv\">→</span> a tab, "
            + "<span class=\"trail\">··</span> trailing spaces (hover for the character's name)</span></div>\n"
        for screen in screens { out += section(screen) }
        return out + "</section>\n"
    }

    private func section(_ screen: Screen) -> String {
        var out =
            "<section class=\"screen\(screen.hasFailure ? " has-failure" : "")\" id=\"\(screen.anchor)\">\n"
            + "<h3>\(HTMLText.escape(screen.key))</h3>\n<p class=\"meta\">asserted by "
            + screen.scenarios.map { "<a href=\"#\($0.anchor)\">\(HTMLText.escape($0.title))</a>" }.joined(separator: ", ") + "</p>\n"
        if !screen.cells.isEmpty {
            out += "<div class=\"grid-scroll\"><table class=\"matrix\"><thead><tr><th></th>"
            for device in screen.devices {
                out += "<th>\(HTMLText.escape(device))<br>\(HTMLText.escape(screen.gridSizes[device] ?? ""))</th>"
            }
            out += "</tr></thead><tbody>\n"
            for language in screen.languages {
                let row = screen.devices.map { screen.cells[language + "\u{0}" + $0] }
                let rowFails = row.contains { $0?.record.outcome.isFailure == true }
                out += "<tr\(rowFails ? " class=\"has-failure\"" : "")><th>\(HTMLText.escape(language))</th>"
                for entry in row {
                    out += entry.map(cell) ?? "<td class=\"cell empty\">not checked</td>"
                }
                out += "</tr>\n"
            }
            out += "</tbody></table></div>\n"
        }
        if !screen.plain.isEmpty {
            out += "<ul class=\"plain-snapshots\">\n"
            for entry in screen.plain {
                out +=
                    "<li class=\"cell\(Self.outcomeClass(entry.record.outcome))\" id=\"\(entry.anchor)\">"
                    + label(entry.record, title: entry.record.identifier) + content(entry.record, widthClass: "") + "</li>\n"
            }
            out += "</ul>\n"
        }
        return out + "</section>\n"
    }

    private func cell(_ entry: Entry) -> String {
        let record = entry.record
        let screen = record.screen!
        let direction = screen.rightToLeft ? " dir=\"rtl\"" : ""
        return "<td class=\"cell\(Self.outcomeClass(record.outcome))\" id=\"\(entry.anchor)\" lang=\"\(HTMLText.escape(screen.language))\""
            + "\(direction) data-outcome=\"\(record.outcome.rawValue)\" title=\"\(HTMLText.escape(record.identifier))\">"
            + (record.outcome.isFailure ? label(record, title: "\(screen.language) · \(screen.device)") : "")
            + content(record, widthClass: " w\(screen.columns)") + "</td>"
    }

    private func label(_ record: SnapshotRecord, title: String) -> String {
        let outcome = record.outcome == .matched ? "" : " · \(record.outcome.rawValue)"
        var out = "<div class=\"cell-label\">\(HTMLText.escape(title))\(outcome)</div>"
        if let summary = record.summary, record.outcome.isFailure {
            out += "<div class=\"summary-line\">\(HTMLText.escape(summary))</div>"
        }
        return out
    }

    /// The text, or the reference and the actual side by side when they differ. The grid is
    /// already laid out in the language's direction by TextScreen (right-to-left rows swapped and
    /// right-aligned), so the text itself is shown left to right, column for column, as in the file.
    private func content(_ record: SnapshotRecord, widthClass: String) -> String {
        let (header, body) = Self.splitHeader(record.actual ?? "(no text)", screen: record.screen != nil)
        var actual = body
        let title = header.map { " title=\"\(HTMLText.escape($0))\"" } ?? ""
        guard var reference = record.reference else {
            return "<pre class=\"text-screen\(widthClass)\" dir=\"ltr\"\(title)>\(HTMLText.escape(actual))</pre>"
        }
        let (referenceHeader, referenceBody) = Self.splitHeader(reference, screen: record.screen != nil)
        if referenceHeader == header {
            reference = referenceBody
        } else {
            actual = record.actual ?? ""
        }
        let diff = SideBySideDiff(reference: reference, actual: actual)
        func side(_ heading: String, _ pick: (SideBySideDiff.Row) -> String?) -> String {
            var out = "<div class=\"side\"><div class=\"side-title\">\(heading)</div><pre class=\"text-screen\(widthClass)\" dir=\"ltr\">"
            for row in diff.rows {
                if let line = pick(row) {
                    out +=
                        "<span class=\"ln \(row.kind.rawValue)\">"
                        + (row.kind == .same ? HTMLText.escape(line) : HTMLText.revealingInvisibles(line)) + "</span>"
                } else {
                    out += "<span class=\"ln gap\"> </span>"
                }
            }
            return out + "</pre></div>"
        }
        return "<div class=\"side-by-side\">" + side("expected (reference)") { $0.left } + side("actual") { $0.right } + "</div>"
    }

    /// A screen's `# screen lang=… device=…` first line and the rest: the line says what the row and
    /// column headings say and is wider than a phone, so it becomes the text's tooltip.
    private static func splitHeader(_ text: String, screen: Bool) -> (header: String?, body: String) {
        guard screen, text.hasPrefix("# screen "), let end = text.firstIndex(of: "\n") else { return (nil, text) }
        return (String(text[..<end]), String(text[text.index(after: end)...]))
    }

    private static func outcomeClass(_ outcome: SnapshotRecord.Outcome) -> String {
        switch outcome {
        case .matched: ""
        case .recorded: " recorded"
        case .mismatched, .missing, .failed: " fail"
        }
    }
}
