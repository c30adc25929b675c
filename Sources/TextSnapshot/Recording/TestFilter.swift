import TestRunObservation

/// The `swift test --filter` argument printed under a failure (`re-record:`, `record it:`, …): it
/// selects the XCTest test that is running — inside a SpecKit scenario that is the scenario, not
/// the snapshot's `testName:` — as a regular expression, quoted for the shell:
///
/// ```text
/// --filter '^Specs\.LoginSpec/Failures in the reader'\''s language - A wrong password in de$'
/// ```
/// Before any test start was seen (the first assertion of a run without SpecKit) it falls back to
/// `'/<testName>$'`, which selects a plain XCTest method of that name in any class.
enum TestFilter {
    /// The command that runs the current test again: `swift test --filter '…'`; for a SpecKit
    /// scenario under Swift Testing (whose cases `--filter` cannot pick) the scenario is chosen
    /// with `BDD_SCENARIO`: `BDD_SCENARIO='^Sunny day$' swift test --filter 'App\.ForecastFeature'`.
    static func command(testName: String) -> String {
        if let suite = RunningTest.swiftTestingSuite, let scenario = RunningTest.scenarioTestName {
            return "BDD_SCENARIO=" + shellQuoted("^" + escaped(scenario) + "$")
                + " swift test --filter " + shellQuoted(escaped(suite))
        }
        return "swift test --filter " + argument(testName: testName)
    }

    /// The quoted pattern, ready to follow `--filter `.
    static func argument(testName: String) -> String {
        shellQuoted(pattern(for: RunningTest.current, testName: testName))
    }

    /// `^Module\.Class/method$` for the running test (`\.Class/method$` when the module is unknown),
    /// else `/testName$`.
    static func pattern(for running: RunningTest.Identity?, testName: String) -> String {
        guard let running else {
            return "/" + escaped(SnapshotFiles.sanitize(testName)) + "$"
        }
        let scope = running.isModuleQualified ? "^" + escaped(running.className) : "\\." + escaped(running.className)
        return scope + "/" + escaped(running.methodName) + "$"
    }

    /// Backslash before every regular-expression metacharacter, so names match literally
    /// (`same title \(2\) @smoke`).
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// `'text'`, with each `'` written as `'\''` (POSIX shells, bash, zsh).
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
