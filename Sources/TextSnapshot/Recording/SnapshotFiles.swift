import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Naming, reading and atomic writing of snapshot files.
///
/// Layout: `<folder of the test file>/__Snapshots__/<TestFile>/<testName>.<name>.<ext>`, where
/// `TEXT_SNAPSHOT_DIR` replaces `<folder of the test file>/__Snapshots__` and a `snapshotDirectory:`
/// argument replaces the whole folder. Contents are UTF-8 with LF line ends and exactly one final newline.
public enum SnapshotFiles {
    /// `testLogin()` → `testLogin`; keeps letters, digits and `_`, turns runs of anything else into `-`.
    public static func sanitize(_ component: String) -> String {
        var result = ""
        var pendingDash = false
        for character in component {
            if character.isLetter || character.isNumber || character == "_" {
                if pendingDash && !result.isEmpty { result.append("-") }
                pendingDash = false
                result.append(character)
            } else {
                pendingDash = true
            }
        }
        return result
    }

    /// The snapshot text as stored: CRLF and CR become LF, trailing newlines collapse to exactly one.
    public static func normalize(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\r" {
                scalars.append("\n")
                previousWasCR = true
                continue
            }
            if scalar == "\n" && previousWasCR { previousWasCR = false; continue }
            previousWasCR = false
            scalars.append(scalar)
        }
        while scalars.last == "\n" { scalars.removeLast() }
        scalars.append("\n")
        return String(scalars)
    }

    /// The `__Snapshots__` root for a test file, honouring `TEXT_SNAPSHOT_DIR` and scoped settings.
    public static func root(for file: String, settings: SnapshotSettings) -> String {
        if let root = settings.snapshotRoot { return absolute(root) }
        if let root = settings.resolvedEnvironment["TEXT_SNAPSHOT_DIR"], !root.isEmpty { return absolute(root) }
        return (((file as NSString).deletingLastPathComponent) as NSString).appendingPathComponent("__Snapshots__")
    }

    /// A message when references would live next to a source file this process cannot see (tests
    /// running on a device or in a sandbox, where `#filePath` names the build machine's folder) and no
    /// snapshot root was set; `nil` when the folder exists or a root is configured.
    static func unreachableSourceTree(file: String, settings: SnapshotSettings) -> String? {
        if settings.snapshotRoot != nil { return nil }
        if let root = settings.resolvedEnvironment["TEXT_SNAPSHOT_DIR"], !root.isEmpty { return nil }
        let folder = (file as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue { return nil }
        return "The source tree is not reachable from this test process: \(folder) does not exist here "
            + "(running on a device, in a simulator sandbox or from a copied bundle?), so the references next to it cannot be read. "
            + "Set the snapshot root to a folder this process can read: TEXT_SNAPSHOT_DIR (TEST_RUNNER_TEXT_SNAPSHOT_DIR "
            + "under xcodebuild, SIMCTL_CHILD_TEXT_SNAPSHOT_DIR for a simulator) or \"snapshotRoot\" in rehearsal.json."
    }

    /// `LoginTests` for `/…/LoginTests.swift`.
    public static func testFileName(_ file: String) -> String {
        ((file as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    static func absolute(_ path: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        if expanded.hasPrefix("/") { return URL(fileURLWithPath: expanded).standardizedFileURL.path }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent(expanded).standardizedFileURL.path
    }

    /// Writes `text` to `path` atomically: a temporary file in the same folder, then `rename(2)`, so a
    /// reader never sees half a snapshot and an interrupted run never leaves one.
    public static func writeAtomically(_ text: String, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let temporary = (directory as NSString).appendingPathComponent(
            ".\((path as NSString).lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max)).tmp"
        )
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else {
            throw SnapshotFailure(kind: .fileError, message: "could not write \(temporary)", referencePath: path)
        }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw SnapshotFailure(kind: .fileError, message: "could not move \(temporary) to \(path): \(reason)", referencePath: path)
        }
    }
}
