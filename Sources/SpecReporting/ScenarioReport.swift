import Foundation

/// One scenario's outcome: the JSON fragment written per scenario and the unit the living
/// document, the JUnit file and the HTML report are merged from. One JSON object per line
/// (`fragments/<run>/*.jsonl`, `scenarios.jsonl`), readable with `JSONDecoder` and
/// `.secondsSince1970` dates:
///
/// ```swift
/// let decoder = JSONDecoder()
/// decoder.dateDecodingStrategy = .secondsSince1970
/// let reports = try FragmentReader.read(Data(contentsOf: scenariosFile)).reports
/// print(ReportTally(reports).summary)   // ✅ 12 passed · ❌ 1 failed
/// ```
public struct ScenarioReport: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case passed, failed, skipped, pending
    }

    /// The feature, or a rule, describe or context between the feature and the scenario.
    public struct Group: Codable, Sendable, Equatable {
        public var kind: String
        public var title: String
        public var narrative: String?
        public var tags: [String]

        public init(kind: String, title: String, narrative: String?, tags: [String]) {
            self.kind = kind
            self.title = title
            self.narrative = narrative
            self.tags = tags
        }
    }

    public static let formatVersion = 1

    public var formatVersion: Int = ScenarioReport.formatVersion
    public var runID: String
    /// Module-qualified class, e.g. `Specs.LoginFeature`.
    public var specClass: String
    public var feature: Group
    public var featureIndex: Int
    /// Rules, describes and contexts between the feature and the scenario.
    public var path: [Group]
    public var keyword: String
    public var title: String
    public var testName: String
    public var tags: [String]
    public var example: [ExampleField]?
    public var ordinal: Int
    public var status: Status
    /// Why the scenario is pending or was skipped.
    public var reason: String?
    public var duration: Double
    public var steps: [StepResult]
    public var failures: [FailureRecord]
    public var file: String
    public var line: Int
    public var finishedAt: Date
    /// `i/n` when the scenario ran in shard `i` of `n` (`BDD_SHARD`); `nil` in an unsharded run.
    public var shard: String?
    /// The text snapshots the scenario asserted, in order (nil when it took none).
    public var snapshots: [SnapshotRecord]? = nil

    public init(
        formatVersion: Int = ScenarioReport.formatVersion, runID: String, specClass: String, feature: Group,
        featureIndex: Int, path: [Group], keyword: String, title: String, testName: String, tags: [String],
        example: [ExampleField]?, ordinal: Int, status: Status, reason: String?, duration: Double,
        steps: [StepResult], failures: [FailureRecord], file: String, line: Int, finishedAt: Date,
        shard: String? = nil, snapshots: [SnapshotRecord]? = nil
    ) {
        self.formatVersion = formatVersion
        self.runID = runID
        self.specClass = specClass
        self.feature = feature
        self.featureIndex = featureIndex
        self.path = path
        self.keyword = keyword
        self.title = title
        self.testName = testName
        self.tags = tags
        self.example = example
        self.ordinal = ordinal
        self.status = status
        self.reason = reason
        self.duration = duration
        self.steps = steps
        self.failures = failures
        self.file = file
        self.line = line
        self.finishedAt = finishedAt
        self.shard = shard
        self.snapshots = snapshots
    }

    /// What names the scenario across runs, machines and shards: `Specs.LoginSpec/Short password`.
    public var identity: String { specClass + "/" + testName }
}

/// What happened to one step of a scenario run.
public struct StepResult: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case passed, failed, skipped
    }

    public var keyword: String
    public var text: String
    public var status: Status
    public var duration: Double
    public var file: String
    public var line: Int
    /// The first failure message recorded while the step ran.
    public var failure: String?
    /// Declared in a `Background`/`beforeEach`/`justBeforeEach` hook.
    public var background: Bool
    /// How many steps enclose this one (a step group's steps are 1); nil means 0.
    public var depth: Int? = nil
    /// The step's Gherkin data table, header row first.
    public var table: [[String]]? = nil
    /// The step's Gherkin doc string.
    public var docString: String? = nil

    public init(
        keyword: String, text: String, status: Status, duration: Double, file: String, line: Int,
        failure: String?, background: Bool, depth: Int? = nil, table: [[String]]? = nil, docString: String? = nil
    ) {
        self.keyword = keyword
        self.text = text
        self.status = status
        self.duration = duration
        self.file = file
        self.line = line
        self.failure = failure
        self.background = background
        self.depth = depth
        self.table = table
        self.docString = docString
    }

    public var label: String { "\(keyword) \(text)" }
}

/// One failure recorded while a scenario ran, as the test library reported it.
public struct FailureRecord: Codable, Sendable, Equatable {
    public var message: String
    public var file: String
    public var line: Int

    public init(message: String, file: String, line: Int) {
        self.message = message
        self.file = file
        self.line = line
    }
}

/// One column of an outline row.
public struct ExampleField: Codable, Sendable, Equatable {
    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
