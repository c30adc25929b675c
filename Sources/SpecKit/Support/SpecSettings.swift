import Foundation
import RehearsalSettings

/// The settings SpecKit reads, parsed once per process. Each is looked up under its name, then
/// `TEST_RUNNER_`/`SIMCTL_CHILD_`-prefixed (what `xcodebuild` passes), then in `rehearsal.json`
/// (see `RehearsalSettings`).
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `BDD_TAGS` | `smoke,~slow`: keep scenarios with any listed tag and none of the `~` ones | all scenarios |
/// | `BDD_EVENTUALLY_TIMEOUT` | seconds `toEventually` waits (and `toNever`/`toAlways` watch) when no `timeout:` is given | `1` |
/// | `BDD_POLL_INTERVAL` | seconds between polls of `toEventually` & co. | `0.01` |
/// | `BDD_ALLOW_FOCUS` | `1` lets a focused spec (`fit`, `fdescribe`, …) run on CI | unset: focus on CI fails the run |
/// | `BDD_REPORT_DIR` | where fragments, `LIVING-DOC.md` and `junit.xml` go; `off` disables | `<package root>/.build/speckit-report` |
/// | `BDD_RUN_ID` | groups the processes of one run (see the README's report section) | Xcode's session, else `swift test`'s process, else this process |
/// | `BDD_SCENARIO` | a regular expression; only scenarios whose name matches run (both test libraries) | all scenarios |
/// | `BDD_SHARD` | `i/n`: run only shard i of n of the selected scenarios (see `Shard`); an invalid value stops the run | every scenario |
/// | `BDD_SCENARIO_TIMEOUT` | seconds an async scenario may run before it fails | `600` |
enum SpecSettings {
    static var environment: [String: String] { RehearsalSettings.current().environment }

    /// Starts the `rehearsal.json` search next to a spec file, if no setting was read yet.
    static func noteSourceFile(_ path: String) {
        _ = RehearsalSettings.current(anchor: path)
    }

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

    static let pollInterval: TimeInterval = seconds(from: "BDD_POLL_INTERVAL", default: 0.01)

    /// `CI` is truthy (`1`, `true`, `yes`, `on`).
    static let isCI: Bool = truthy(environment["CI"])

    static let allowFocus: Bool = truthy(environment["BDD_ALLOW_FOCUS"])

    static func truthy(_ value: String?) -> Bool {
        guard let value = value?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return ["1", "true", "yes", "on"].contains(value)
    }

    static let scenarioTimeout: TimeInterval = seconds(from: "BDD_SCENARIO_TIMEOUT", default: 600)

    /// `nil` when reporting is switched off with `BDD_REPORT_DIR=off`.
    static let reportDirectory: URL? = {
        let raw = environment["BDD_REPORT_DIR"]?.trimmingCharacters(in: .whitespaces) ?? ""
        if raw.lowercased() == "off" { return nil }
        if !raw.isEmpty { return URL(fileURLWithPath: raw, isDirectory: true).standardizedFileURL }
        // The package's own .build, found from the spec files: Xcode and simulators start the test
        // process in a folder of their choosing, so the working directory is no anchor.
        let base = RehearsalSettings.current().packageRoot ?? FileManager.default.currentDirectoryPath
        return URL(fileURLWithPath: base, isDirectory: true)
            .appendingPathComponent(".build/speckit-report", isDirectory: true).standardizedFileURL
    }()

    /// `BDD_SHARD` (`rehearsal.json` `"shard"`): this process's shard, or `nil` for the whole suite.
    /// A value that is not `i/n` with `1 ≤ i ≤ n` stops the process before any test runs: running
    /// every scenario, or none, on each of n machines would be silently wrong.
    static let shard: Shard? = {
        do {
            return try parseShard(RehearsalSettings.current().values["BDD_SHARD"])
        } catch {
            FileHandle.standardError.write(Data("SpecKit error: \(error); no test ran\n".utf8))
            exit(1)
        }
    }()

    /// The shard a setting names; the error names the variable (or the `rehearsal.json` key) it came from.
    static func parseShard(_ value: RehearsalSettings.Value?) throws -> Shard? {
        guard let value else { return nil }
        let setting: String
        if value.source == "environment" {
            setting = "BDD_SHARD"
        } else if value.source.hasPrefix("rehearsal.json") {
            setting = "\"shard\" in \(value.source)"
        } else {
            setting = value.source
        }
        return try Shard(parsing: value.value.trimmingCharacters(in: .whitespaces), setting: setting)
    }

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
