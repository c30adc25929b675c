import Foundation

/// The settings SpecKit and TextSnapshot read, gathered from every place a runner can put them, so
/// the same names work under `swift test`, `xcodebuild` and Xcode Cloud.
///
/// `xcodebuild` hands the test runner only its scheme/test-plan variables and the ones prefixed
/// `TEST_RUNNER_` (`SIMCTL_CHILD_` for simulators), with the prefix removed on the way. Runners that
/// do not strip it leave us the prefixed name, so each setting is looked up as, in order:
///
/// 1. `NAME` in the environment,
/// 2. `TEST_RUNNER_NAME`,
/// 3. `SIMCTL_CHILD_NAME`,
/// 4. `rehearsal.json`, the nearest one walking up from the first spec or snapshot file (stopping at
///    the folder holding `Package.swift`), or the file named by `REHEARSAL_CONFIG`:
///
/// ```json
/// { "record": "failed", "tags": "smoke,~slow", "reportDirectory": ".build/qa-report",
///   "eventuallyTimeout": 2, "strict": true, "snapshotRoot": "Tests/Snapshots" }
/// ```
///
/// `CI` is also set when a common CI provider (GitHub Actions, GitLab, Xcode Cloud, Jenkins, …) is
/// detected. The effective values are printed once per run when any differs from its default.
package struct RehearsalSettings: Sendable {
    /// One known setting: its canonical (environment) name and its key in `rehearsal.json`.
    package struct Setting: Sendable, Hashable {
        package let name: String
        package let fileKey: String
    }

    /// Every setting SpecKit and TextSnapshot read.
    package static let known: [Setting] = [
        Setting(name: "BDD_TAGS", fileKey: "tags"),
        Setting(name: "BDD_EVENTUALLY_TIMEOUT", fileKey: "eventuallyTimeout"),
        Setting(name: "BDD_POLL_INTERVAL", fileKey: "pollInterval"),
        Setting(name: "BDD_SCENARIO_TIMEOUT", fileKey: "scenarioTimeout"),
        Setting(name: "BDD_SCENARIO", fileKey: "scenario"),
        Setting(name: "BDD_REPORT_DIR", fileKey: "reportDirectory"),
        Setting(name: "BDD_RUN_ID", fileKey: "runID"),
        Setting(name: "BDD_ALLOW_FOCUS", fileKey: "allowFocus"),
        Setting(name: "BDD_SHARD", fileKey: "shard"),
        Setting(name: "TEXT_SNAPSHOT_RECORD", fileKey: "record"),
        Setting(name: "TEXT_SNAPSHOT_STRICT", fileKey: "strict"),
        Setting(name: "TEXT_SNAPSHOT_PRUNE", fileKey: "prune"),
        Setting(name: "TEXT_SNAPSHOT_DIR", fileKey: "snapshotRoot"),
        Setting(name: "TEXT_SNAPSHOT_ARTIFACTS", fileKey: "artifactsDirectory"),
        Setting(name: "TEXT_SNAPSHOT_ALLOW_RECORD_ON_CI", fileKey: "allowRecordOnCI"),
        Setting(name: "CI", fileKey: "ci"),
    ]

    /// Settings that name a folder: relative values in `rehearsal.json` are resolved against its folder.
    package static let folderSettings: Set<String> = ["BDD_REPORT_DIR", "TEXT_SNAPSHOT_DIR", "TEXT_SNAPSHOT_ARTIFACTS"]

    /// The prefixes under which a runner may pass a variable, strongest first.
    package static let prefixes = ["", "TEST_RUNNER_", "SIMCTL_CHILD_"]

    /// Where each effective value came from: `environment`, `TEST_RUNNER_BDD_TAGS`, `rehearsal.json (/path)`, `detected GITHUB_ACTIONS`.
    package struct Value: Sendable, Equatable {
        package var value: String
        package var source: String

        package init(value: String, source: String) {
            self.value = value
            self.source = source
        }
    }

    /// The effective value of every setting that is set anywhere, by canonical name.
    package let values: [String: Value]
    /// The `rehearsal.json` that was read, if any.
    package let configFile: String?
    /// The folder holding `Package.swift` above the anchor (the first spec or snapshot file), if any:
    /// where defaults such as the report folder live, whatever the working directory is.
    package let packageRoot: String?
    /// Problems found while reading (unreadable file, unknown key); printed once, never fatal.
    package let warnings: [String]

    /// The canonical environment: the process environment with every known setting replaced by its
    /// effective value, so code that reads `environment["TEXT_SNAPSHOT_RECORD"]` sees all sources.
    package let environment: [String: String]

    /// Resolves the settings from `environment` and, when found, a `rehearsal.json` near `anchor`
    /// (a source file path) or the working directory.
    package init(environment: [String: String], anchor: String?, currentDirectory: String) {
        var warnings: [String] = []
        var fileValues: [String: String] = [:]
        let file = RehearsalSettings.locateConfigFile(environment: environment, anchor: anchor, currentDirectory: currentDirectory)
        if let file {
            switch RehearsalSettingsFile.read(path: file) {
            case .success(let read):
                fileValues = read.values
                warnings += read.warnings
            case .failure(let problem):
                warnings.append(problem.message)
            }
        }
        var values: [String: Value] = [:]
        for setting in RehearsalSettings.known {
            if let found = RehearsalSettings.lookUp(setting.name, in: environment) {
                values[setting.name] = found
            } else if var value = fileValues[setting.name], let file {
                // Folders in the file are relative to the file, not to whatever the working directory is.
                if RehearsalSettings.folderSettings.contains(setting.name), !value.hasPrefix("/"), !value.hasPrefix("~") {
                    let base = (file as NSString).deletingLastPathComponent
                    value = ((base as NSString).appendingPathComponent(value) as NSString).standardizingPath
                }
                values[setting.name] = Value(value: value, source: "rehearsal.json (\(file))")
            }
        }
        if values["CI"] == nil, let provider = CIDetection.provider(in: environment) {
            values["CI"] = Value(value: "true", source: "detected \(provider)")
        }
        var effective = environment
        for (name, value) in values { effective[name] = value.value }
        self.values = values
        self.configFile = file
        self.packageRoot = anchor.flatMap { RehearsalSettings.packageRoot(above: ($0 as NSString).deletingLastPathComponent) }
        self.warnings = warnings
        self.environment = effective
    }

    /// `NAME`, then `TEST_RUNNER_NAME`, then `SIMCTL_CHILD_NAME`; empty values count as unset.
    package static func lookUp(_ name: String, in environment: [String: String]) -> Value? {
        for prefix in prefixes {
            let key = prefix + name
            if let raw = environment[key], !raw.trimmingCharacters(in: .whitespaces).isEmpty {
                return Value(value: raw, source: prefix.isEmpty ? "environment" : key)
            }
        }
        return nil
    }

    /// `REHEARSAL_CONFIG` (any prefix) if set, else the nearest `rehearsal.json` walking up from the
    /// anchor's folder, else from the working directory; the walk stops at a folder with `Package.swift`.
    package static func locateConfigFile(environment: [String: String], anchor: String?, currentDirectory: String) -> String? {
        if let explicit = lookUp("REHEARSAL_CONFIG", in: environment)?.value {
            let path = explicit.hasPrefix("/") ? explicit : (currentDirectory as NSString).appendingPathComponent(explicit)
            return (path as NSString).standardizingPath
        }
        var starts: [String] = []
        if let anchor { starts.append((anchor as NSString).deletingLastPathComponent) }
        starts.append(currentDirectory)
        let manager = FileManager.default
        for start in starts {
            var directory = (start as NSString).standardizingPath
            while !directory.isEmpty {
                let candidate = (directory as NSString).appendingPathComponent("rehearsal.json")
                if manager.fileExists(atPath: candidate) { return candidate }
                if manager.fileExists(atPath: (directory as NSString).appendingPathComponent("Package.swift")) { break }
                let parent = (directory as NSString).deletingLastPathComponent
                if parent == directory { break }
                directory = parent
            }
        }
        return nil
    }

    /// The nearest folder at or above `directory` that holds `Package.swift`.
    package static func packageRoot(above directory: String) -> String? {
        var directory = (directory as NSString).standardizingPath
        let manager = FileManager.default
        while !directory.isEmpty {
            if manager.fileExists(atPath: (directory as NSString).appendingPathComponent("Package.swift")) { return directory }
            let parent = (directory as NSString).deletingLastPathComponent
            if parent == directory { return nil }
            directory = parent
        }
        return nil
    }

    /// One line per setting that is set, for the run's log; empty when everything is at its default.
    package var summary: String {
        let set = RehearsalSettings.known.compactMap { setting -> String? in
            guard let value = values[setting.name] else { return nil }
            return "  \(setting.name)=\(value.value)  (\(value.source))"
        }
        let lines = warnings.map { "  warning: \($0)" } + set
        return lines.isEmpty ? "" : "Rehearsal settings in effect:\n" + lines.joined(separator: "\n")
    }

    // MARK: The process-wide settings

    private static let lock = NSLock()
    nonisolated(unsafe) private static var resolved: RehearsalSettings?

    /// The settings of this process, resolved on first use (with `anchor`, the first source file that
    /// asks, as the starting point of the `rehearsal.json` search) and printed once to standard error
    /// when any setting is set. Standard output stays clean for `swift test list`.
    package static func current(anchor: String? = nil) -> RehearsalSettings {
        lock.lock()
        defer { lock.unlock() }
        if let resolved { return resolved }
        let settings = RehearsalSettings(
            environment: ProcessInfo.processInfo.environment, anchor: anchor,
            currentDirectory: FileManager.default.currentDirectoryPath)
        resolved = settings
        let summary = settings.summary
        if !summary.isEmpty && !isListingTests {
            FileHandle.standardError.write(Data((summary + "\n").utf8))
        }
        return settings
    }

    /// SwiftPM asks the test binary for its list (`--list-tests`, `--dump-tests-json`): print nothing then.
    static var isListingTests: Bool {
        CommandLine.arguments.contains { $0 == "--list-tests" || $0 == "--dump-tests-json" || $0 == "-l" }
    }
}
