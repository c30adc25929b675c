import Foundation

/// Where a `failover`/`playback` file or a `record`/`replay` tape lives. moco resolves these
/// names, like `file`, against the working directory; a name that exists only next to the
/// configuration (the form configurations written for stubserver used) keeps working:
///
/// 1. an absolute name is used as it is;
/// 2. with `file_root` set, the name is below it;
/// 3. otherwise the working directory's file when it exists, else the file next to the
///    configuration when that exists, else the working directory (where it will be written).
///
/// ```swift
/// // started in /project with -c src/test/resources/conf.json:
/// SavedFileLocation.resolve("src/test/resources/failover.json", scope: scope).path
/// // "/project/src/test/resources/failover.json"
/// ```
struct SavedFileLocation: Sendable, Equatable {
    /// The absolute path read and written.
    var path: String
    var exists: Bool
    /// The other candidate, when both exist and differ (worth a warning).
    var shadowed: String?
    /// Every place looked at, for messages.
    var candidates: [String]

    static func resolve(_ name: String, scope: StubScope) -> SavedFileLocation {
        if name.hasPrefix("/") {
            let path = URL(fileURLWithPath: name).standardizedFileURL.path
            return SavedFileLocation(path: path, exists: isFile(path), shadowed: nil, candidates: [path])
        }
        let nextToConfig = join(scope.fileRoot, name)
        guard let workingDirectory = scope.fallbackRoot, workingDirectory != scope.fileRoot else {
            return SavedFileLocation(path: nextToConfig, exists: isFile(nextToConfig), shadowed: nil, candidates: [nextToConfig])
        }
        let inWorkingDirectory = join(workingDirectory, name)
        let candidates = [inWorkingDirectory, nextToConfig]
        switch (isFile(inWorkingDirectory), isFile(nextToConfig)) {
        case (true, let both):
            let shadowed = both && inWorkingDirectory != nextToConfig ? nextToConfig : nil
            return SavedFileLocation(path: inWorkingDirectory, exists: true, shadowed: shadowed, candidates: candidates)
        case (false, true):
            return SavedFileLocation(path: nextToConfig, exists: true, shadowed: nil, candidates: candidates)
        case (false, false):
            return SavedFileLocation(path: inWorkingDirectory, exists: false, shadowed: nil, candidates: candidates)
        }
    }

    private static func join(_ directory: String, _ name: String) -> String {
        URL(fileURLWithPath: directory).appendingPathComponent(name).standardizedFileURL.path
    }

    private static func isFile(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && !directory.boolValue
    }
}
