import Foundation

/// The repository's `Stubs/` folder, found from this file's path, so the specs read the same
/// files the `stubserver` command serves, whatever the working directory.
enum StubsFolder {
    /// `<repository>/Stubs`.
    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // Support
        .deletingLastPathComponent() // Specs
        .deletingLastPathComponent() // the repository
        .appendingPathComponent("Stubs", isDirectory: true)

    /// `Stubs/settings.json`, what `make stub` serves.
    static var settings: URL { file("settings.json") }

    /// A file under `Stubs/`: `StubsFolder.file("stories/101.json")`.
    static func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// The text of a file under `Stubs/`.
    static func text(_ name: String) throws -> String {
        try String(contentsOf: file(name), encoding: .utf8)
    }
}
