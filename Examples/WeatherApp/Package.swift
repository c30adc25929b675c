// swift-tools-version:6.0
// An app's package that uses Rehearsal exactly as any other package would. Here the dependency is
// the repository itself (`path: "../.."`), so CI tests the outside view on every change; yours reads
// `.package(url: "https://github.com/<owner>/Rehearsal.git", from: "0.1.0")`.
import PackageDescription

let package = Package(
    name: "WeatherApp",
    // Required once a target has `.lproj` resources.
    defaultLocalization: "en",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        .package(name: "Rehearsal", path: "../..")
    ],
    targets: [
        // App code links only the XCTest-free libraries.
        .target(
            name: "WeatherApp",
            dependencies: [.product(name: "TextScreen", package: "Rehearsal")],
            resources: [.process("Resources")]
        ),
        // Specs: SpecKit (XCTest and Swift Testing), TextSnapshot, and the embedded StubServer.
        .testTarget(
            name: "WeatherAppSpecs",
            dependencies: [
                "WeatherApp",
                .product(name: "SpecKit", package: "Rehearsal"),
                .product(name: "TextSnapshot", package: "Rehearsal"),
                .product(name: "StubServer", package: "Rehearsal"),
            ],
            // Snapshot files are data for the tests, not sources or resources.
            exclude: ["__Snapshots__"],
            // CI keeps the example warning-free, so an API that warns when used as documented
            // (an unused result, a deprecation) fails the build. Not needed in your package.
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
