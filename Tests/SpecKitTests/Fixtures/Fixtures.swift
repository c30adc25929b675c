import Foundation

/// Fixture specs fail, skip and misbehave on purpose so that SpecKit's own
/// tests can run them in a subprocess of the test binary and assert the
/// output and the report. They declare their scenarios only when
/// `SPECKIT_FIXTURES=1` (which `FixtureProcess` sets); in the normal run the
/// classes expand to no tests at all, so they never fail `make test`.
enum Fixtures {
    static let enabled = ProcessInfo.processInfo.environment["SPECKIT_FIXTURES"] == "1"

    /// Focus fixtures focus the whole process, so they have their own switch (`SPECKIT_FOCUS_FIXTURES=1`)
    /// and stay out of every other fixture run.
    static let focusEnabled = enabled && ProcessInfo.processInfo.environment["SPECKIT_FOCUS_FIXTURES"] == "1"

    /// `beforeSuite`/`afterSuite` fixtures run once per process, so they too have their own switch:
    /// `SPECKIT_SUITE_FIXTURES=trace`, `fail-before` or `fail-after`.
    static let suiteMode = enabled ? ProcessInfo.processInfo.environment["SPECKIT_SUITE_FIXTURES"] : nil

    /// A line the parent test looks for in the subprocess's standard output.
    static func trace(_ text: String) {
        print("TRACE: \(text)")
    }

    /// This folder, for finding `// @mark:` lines in fixture sources.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
}

extension Fixtures {
    /// The Swift Testing twins of the XCTest structure fixtures (`FixtureSwiftTestingParity.swift`)
    /// declare their scenarios only with `SPECKIT_ST_PARITY=1`, so other Swift Testing fixture runs
    /// keep their own scenarios.
    static let parityEnabled = enabled && ProcessInfo.processInfo.environment["SPECKIT_ST_PARITY"] == "1"
}
