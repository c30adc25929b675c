import Foundation

/// The environment variables SpecKit reads, parsed once per process.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `BDD_TAGS` | `smoke,~slow`: keep scenarios with any listed tag and none of the `~` ones | all scenarios |
/// | `BDD_EVENTUALLY_TIMEOUT` | seconds `toEventually` waits when no `timeout:` is given | `1` |
/// | `BDD_REPORT_DIR` | where fragments, `LIVING-DOC.md` and `junit.xml` go; `off` disables | `.build/speckit-report` |
/// | `BDD_RUN_ID` | groups the processes of one run (see the README's report section) | derived from the parent process |
/// | `BDD_SCENARIO` | a regular expression; only scenarios whose name matches run (both test libraries) | all scenarios |
/// | `BDD_SCENARIO_TIMEOUT` | seconds an async scenario may run before it fails | `600` |
enum SpecSettings {
    static let environment = ProcessInfo.processInfo.environment

    static let tagFilter: TagFilter = TagFilter(parsing: environment["BDD_TAGS"] ?? "")

    /// `BDD_SCENARIO`: picks scenarios by name, e.g. inside one Swift Testing feature.
    static let scenarioPattern: NSRegularExpression? = {
        guard let raw = environment["BDD_SCENARIO"], !raw.isEmpty else { return nil }
        do {
            return try NSRegularExpression(pattern: raw)
        } catch {
            warn("BDD_SCENARIO=\(raw) is not a regular expression (\(error)); running every scenario")
            return nil
        }
    }()

    static let eventuallyTimeout: TimeInterval = seconds(from: "BDD_EVENTUALLY_TIMEOUT", default: 1)

    static let scenarioTimeout: TimeInterval = seconds(from: "BDD_SCENARIO_TIMEOUT", default: 600)

    /// `nil` when reporting is switched off with `BDD_REPORT_DIR=off`.
    static let reportDirectory: URL? = {
        let raw = environment["BDD_REPORT_DIR"]?.trimmingCharacters(in: .whitespaces) ?? ""
        if raw.lowercased() == "off" { return nil }
        let path = raw.isEmpty ? ".build/speckit-report" : raw
        return URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
    }()

    static let runID: String? = {
        guard let raw = environment["BDD_RUN_ID"]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else {
            return nil
        }
        return raw
    }()

    private static func seconds(from name: String, default fallback: TimeInterval) -> TimeInterval {
        guard let raw = environment[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else {
            return fallback
        }
        guard let value = TimeInterval(raw), value.isFinite, value > 0 else {
            warn("\(name)=\(raw) is not a positive number of seconds; using \(fallback)")
            return fallback
        }
        return value
    }

    /// Warnings go to standard error: standard output must stay parseable while
    /// SwiftPM lists tests (`--dump-tests-json`).
    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("SpecKit warning: \(message)\n".utf8))
    }
}
