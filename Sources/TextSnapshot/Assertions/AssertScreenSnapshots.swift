import TestRunObservation
import XCTest

/// The outcome of a screen matrix: which combinations ran, which failed and what was written.
public struct ScreenSnapshotReport: Sendable {
    /// One failed combination.
    public struct CombinationFailure: Sendable {
        /// `lang_ja_device_phone4inch`.
        public var identifier: String
        public var failure: SnapshotFailure
    }

    /// Identifiers of every combination checked, in order.
    public var identifiers: [String]
    /// One entry per failing combination (and per duplicate identifier).
    public var failures: [CombinationFailure]
    /// Every reference file written in this run.
    public var writtenPaths: [String] { failures.flatMap(\.failure.writtenPaths) }

    /// What ``assertScreenSnapshots(languages:devices:orientations:sampling:localizer:record:snapshotDirectory:file:testName:line:_:)``
    /// reports: one message per combination that went wrong, then the summary; combinations
    /// that only (re-)recorded their reference are reported together, as one message listing
    /// the files, so recording a new screen in 30 combinations is one failure, not 90 lines.
    public var failureMessages: [String] {
        let recorded = failures.filter { $0.failure.kind == .recorded }
        let others = failures.filter { $0.failure.kind != .recorded }
        var messages = others.map { "[\($0.identifier)] " + $0.failure.message }
        if !recorded.isEmpty {
            let paths = recorded.flatMap(\.failure.writtenPaths)
            var text =
                "Recorded \(paths.count) reference snapshot\(paths.count == 1 ? "" : "s") "
                + "(\(recorded.count) of \(identifiers.count) combination\(identifiers.count == 1 ? "" : "s")); "
                + "review them, then re-run the test:\n" + paths.map { "  \($0)" }.joined(separator: "\n")
            if let rerun = recorded.first?.failure.message.split(separator: "\n").first(where: {
                $0.contains("re-run") || $0.contains("verify:")
            }) {
                text += "\n" + rerun.trimmingCharacters(in: .whitespaces)
            }
            messages.append(text)
        }
        if !others.isEmpty, let summary { messages.append(summary) }
        return messages
    }

    /// `3 of 25 combinations failed: …` — nil when everything passed.
    public var summary: String? {
        guard !failures.isEmpty else { return nil }
        var text =
            "\(failures.count) of \(identifiers.count) screen snapshot combination\(identifiers.count == 1 ? "" : "s") failed: "
            + failures.map(\.identifier).joined(separator: ", ")
        let written = writtenPaths
        if !written.isEmpty {
            text +=
                "\nwrote \(written.count) reference file\(written.count == 1 ? "" : "s"):\n"
                + written.map { "  \($0)" }.joined(separator: "\n")
        }
        return text
    }
}

/// Snapshots one screen in every language × device (× orientation) combination, Kickstarter-style:
/// the closure runs once per combination with a fresh ``SnapshotContext`` and the result is laid out on
/// that device's grid and compared with `__Snapshots__/<TestFile>/<test>.lang_<l>_device_<d>.txt`
/// (`_landscape` appended in landscape). Reports one failure per failing combination plus a summary;
/// every missing reference is written in the same run.
///
/// ```swift
/// func testLoginEmpty() {
///     assertScreenSnapshots(languages: Language.allCases, devices: Device.allCases, localizer: strings) { context in
///         LoginScreen(state: .empty).screen(in: context)
///     }
/// }
/// ```
///
/// - Parameters:
///   - sampling: `.all` checks every combination; `.orthogonal` each language and device at least once.
///   - localizer: becomes `context.strings`, switched to each combination's language.
public func assertScreenSnapshots<Screen: ScreenRenderable>(
    languages: [Language] = Language.allCases,
    devices: [Device] = Device.allCases,
    orientations: [Orientation] = [.portrait],
    sampling: Sampling = .all,
    localizer: Localizer? = nil,
    record: RecordMode? = nil,
    snapshotDirectory: String? = nil,
    file: StaticString = #filePath,
    testName: String = #function,
    line: UInt = #line,
    _ screen: (SnapshotContext) throws -> Screen
) {
    let report = verifyScreenSnapshots(
        languages: languages, devices: devices, orientations: orientations, sampling: sampling, localizer: localizer,
        record: record, snapshotDirectory: snapshotDirectory, file: file, testName: testName, line: line, screen)
    for message in report.failureMessages {
        FailureRouter.record(message, file: file, line: line)
    }
}

/// ``assertScreenSnapshots(languages:devices:orientations:sampling:localizer:record:snapshotDirectory:file:testName:line:_:)``
/// returning the report instead of failing the test.
public func verifyScreenSnapshots<Screen: ScreenRenderable>(
    languages: [Language] = Language.allCases,
    devices: [Device] = Device.allCases,
    orientations: [Orientation] = [.portrait],
    sampling: Sampling = .all,
    localizer: Localizer? = nil,
    record: RecordMode? = nil,
    snapshotDirectory: String? = nil,
    file: StaticString = #filePath,
    testName: String = #function,
    line: UInt = #line,
    _ screen: (SnapshotContext) throws -> Screen
) -> ScreenSnapshotReport {
    let triples: [(Language, Device, Orientation)] =
        switch sampling {
        case .all: combos(languages, devices, orientations)
        case .orthogonal: orthogonalCombos(languages, devices, orientations)
        }
    var report = ScreenSnapshotReport(identifiers: [], failures: [])
    if triples.isEmpty {
        report.failures.append(
            .init(
                identifier: "(none)",
                failure: SnapshotFailure(
                    kind: .configuration, message: "No combinations to snapshot: languages, devices and orientations must not be empty.")))
        return report
    }
    var seen: Set<String> = []
    for (language, device, orientation) in triples {
        let context = SnapshotContext(language: language, device: device, orientation: orientation, localizer: localizer)
        let identifier = context.identifier
        guard seen.insert(identifier).inserted else {
            report.failures.append(
                .init(
                    identifier: identifier,
                    failure: SnapshotFailure(
                        kind: .duplicate, message: "Combination \(identifier) appears more than once in the matrix; it was checked once.")))
            continue
        }
        report.identifiers.append(identifier)
        let rendered: Result<TextNode, any Error> = SnapshotContext.withContext(context) {
            Result { try screen(context).screen(in: context) }
        }
        let strategy = Snapshotting<TextNode>.screen(context).pullback { (result: Result<TextNode, any Error>) in try result.get() }
        let screen = SnapshotEvent.Screen(
            language: language.rawValue, rightToLeft: context.direction == .rightToLeft,
            device: String(identifier.dropFirst("lang_\(language.rawValue)_device_".count)),
            orientation: orientation.rawValue, columns: context.grid.columns, rows: context.grid.rows)
        if let failure = SnapshotRecorder(settings: .current).verify(
            of: { rendered }, as: strategy, named: identifier, record: record, snapshotDirectory: snapshotDirectory,
            file: "\(file)", testName: testName, line: line, screen: screen)
        {
            report.failures.append(.init(identifier: identifier, failure: failure))
        }
    }
    return report
}
