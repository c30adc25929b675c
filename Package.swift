// swift-tools-version:6.0
// Rehearsal: a behaviour-driven test and stub-server toolkit for Swift.
// Zero package dependencies is a product promise: never add a `.package(...)` line.
import PackageDescription

let package = Package(
    name: "Rehearsal",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "StubServer", targets: ["StubServer"]),
        // XCTest-free client of a running stubserver's admin API (UI tests, scripts).
        .library(name: "StubServerClient", targets: ["StubServerClient"]),
        .library(name: "SpecKit", targets: ["SpecKit"]),
        .library(name: "SpecKitAppSupport", targets: ["SpecKitAppSupport"]),
        .library(name: "TextSnapshot", targets: ["TextSnapshot"]),
        .library(name: "TextScreen", targets: ["TextScreen"]),
        .library(name: "DesignerNews", targets: ["DesignerNews"]),
        // The scenario report model and renderers, to read or render SpecKit's fragments without XCTest.
        .library(name: "SpecReporting", targets: ["SpecReporting"]),
        .executable(name: "stubserver", targets: ["StubServerCLI"]),
        .executable(name: "speckit", targets: ["SpeckitCLI"]),
    ],
    targets: [
        // Exposes the Linux system headers that Glibc's module map leaves out
        // (epoll, eventfd, timerfd, accept4). Our own code; it only includes libc headers.
        .target(name: "CSystemShims"),
        // The package's one lock-protected box (`Locked`), at the bottom of the graph so the
        // engine, the test-run observation, SpecKit, the client and the sample app share it.
        .target(name: "Locking"),
        // What verifying requests needs and nothing of the engine: `RequestFilter` (moco's request
        // matcher as a value) and the `ReceivedRequestsVerifying` protocol. SpecKit's
        // `haveReceived` builds on it; StubServer and StubServerClient conform.
        .target(name: "StubVerification", dependencies: ["RehearsalJSON"]),
        // The transport, knowing nothing of moco: event loops and poller, sockets and system calls,
        // the HTTP/1.1 parser and writer, the four reply kinds, limits, memory budget, the
        // upstream client with TLS, websocket framing. StubServer builds moco on top of it.
        .target(name: "HTTPEngine", dependencies: ["CSystemShims", "Locking"]),
        // JSON as the stub server reads it: `JSONValue` (key order and number text kept), a strict
        // RFC 8259 parser with line/column errors, and the one JSON writer/string escaper.
        // Foundation-free and XCTest-free, so app-linkable targets and the OpenAPI reader use it too.
        .target(name: "RehearsalJSON"),
        // A YAML 1.2 reader of our own (block/flow collections, every scalar style, anchors with an
        // expansion cap, core schema) with line/column errors, converting to `JSONValue` for OpenAPI.
        .target(name: "YAML", dependencies: ["RehearsalJSON"]),
        // moco's `match` and JSON Schema's `pattern`: an ICU regex with a step budget, so a
        // catastrophic pattern cannot hold an event loop. Shared by StubServer and OpenAPI.
        .target(name: "BoundedRegex", dependencies: ["RehearsalJSON"]),
        // OpenAPI 3.0/3.1 documents: the operation model, `$ref` resolution across confined
        // files, and the JSON Schema validator (`stubserver check`, contract checks).
        .target(name: "OpenAPI", dependencies: ["RehearsalJSON", "BoundedRegex", "YAML"]),
        // The stub model as values, nothing of matching or serving: `StubDefinition` and its request
        // and response parts, their moco JSON encoding, and what the admin API answers with
        // (`RecordedRequest`, `StubInfo`, `ScenarioState`). Shared by StubServer and StubServerClient,
        // so an app linking the client does not compile the moco engine.
        .target(name: "StubModel", dependencies: ["RehearsalJSON"]),
        .target(name: "StubServer", dependencies: ["HTTPEngine", "StubModel", "RehearsalJSON", "BoundedRegex", "OpenAPI", "CSystemShims", "StubVerification", "Locking"]),
        .target(name: "StubServerClient", dependencies: ["StubModel", "HTTPEngine", "StubVerification", "Locking"]),
        .executableTarget(name: "StubServerCLI", dependencies: ["StubServer", "StubServerClient", "OpenAPI"]),
        // `make bench-router`: per-request routing cost, 10 vs 10,000 stubs.
        .executableTarget(name: "RouterBench", dependencies: ["StubServer"], path: "bench/RouterBench"),
        // `make bench-yaml`: the YAML reader on a 10 MB OpenAPI-shaped document against JSONParser on the same data.
        .executableTarget(name: "YAMLBench", dependencies: ["YAML", "RehearsalJSON", "OpenAPI"], path: "bench/YAMLBench"),
        // `make bench-proxy`: the upstream client against URLSession on the same upstream.
        .executableTarget(name: "UpstreamClientBench", dependencies: ["StubServer"], path: "bench/UpstreamClientBench"),
        // `make bench-live`: websocket echo round trip versus an HTTP keep-alive request.
        .executableTarget(name: "LiveBench", dependencies: ["StubServer"], path: "bench/LiveBench"),
        // App code may link SpecKitAppSupport and TextScreen; they never import XCTest
        // (`make check-app-targets`). SpecKit and TextSnapshot re-export them for tests.
        .target(name: "SpecKitAppSupport", dependencies: ["RehearsalJSON"]),
        .target(name: "SpecKit", dependencies: ["SpecKitAppSupport", "RehearsalJSON", "TestRunObservation", "RehearsalSettings", "StubVerification", "SpecReporting", "Locking"]),
        // The report model (`ScenarioReport`, fragments) and its renderers (living document, JUnit),
        // Foundation only: no XCTest, no Testing. SpecKit writes it; `speckit merge` merges shards of it.
        .target(name: "SpecReporting", dependencies: ["RehearsalJSON"]),
        // `speckit merge`: the shards' reports of a sharded run (`BDD_SHARD=i/n`) merged into one.
        .executableTarget(name: "SpeckitCLI", dependencies: ["SpecReporting"]),
        .target(name: "TextScreen"),
        .target(name: "TextSnapshot", dependencies: ["TextScreen", "TestRunObservation", "RehearsalSettings"]),
        // Which XCTest test is running, shared by SpecKit (which starts watching while the test
        // list is built) and TextSnapshot (which names that test in its re-record commands).
        .target(name: "TestRunObservation", dependencies: ["Locking"]),
        // Settings from the environment (plain, TEST_RUNNER_, SIMCTL_CHILD_), rehearsal.json and CI
        // detection, shared by SpecKit and TextSnapshot so both read them the same way under xcodebuild.
        .target(name: "RehearsalSettings"),
        .target(
            name: "DesignerNews",
            dependencies: ["SpecKitAppSupport", "TextScreen", "Locking"],
            resources: [.copy("Resources")]
        ),
        // `make bench-snapshots`: times verifying 1,000 existing text snapshots (release build).
        .executableTarget(name: "TextSnapshotBench", dependencies: ["TextSnapshot"], path: "bench/TextSnapshotBench"),
        // The built `stubserver` as a subprocess, shared by the two test targets that spawn it.
        .target(name: "StubServerTestSupport", path: "Tests/StubServerTestSupport"),
        .testTarget(name: "StubServerTests", dependencies: ["StubServer", "HTTPEngine", "OpenAPI", "Locking", "StubServerTestSupport"], exclude: ["MocoExamples"]),
        .testTarget(name: "OpenAPITests", dependencies: ["OpenAPI"]),
        // Spawns the built `stubserver` and drives it through StubServerClient and haveReceived.
        .testTarget(name: "StubServerClientTests", dependencies: ["StubServerClient", "StubServer", "SpecKit", "StubServerTestSupport"]),
        // The YAML reader against hand-written cases, the yaml-test-suite (when its data is present) and fuzzing.
        .testTarget(name: "YAMLTests", dependencies: ["YAML", "RehearsalJSON"], exclude: ["Fixtures"]),
        .testTarget(name: "SpecKitTests", dependencies: ["SpecKit", "RehearsalSettings", "SpecReporting"]),
        // No bootstrap file on purpose: proves a spec target without one fails loudly.
        .testTarget(name: "SpecKitNoBootstrapTests", dependencies: ["SpecKit"]),
        // SpecKit too: a scenario proves re-record commands select SpecKit-named tests.
        .testTarget(name: "TextSnapshotTests", dependencies: ["TextSnapshot", "SpecKit", "TestRunObservation"], exclude: ["__Snapshots__"]),
        .testTarget(
            name: "Specs",
            dependencies: ["DesignerNews", "SpecKit", "TextSnapshot", "StubServer"],
            path: "Specs",
            exclude: ["__Snapshots__"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
