import Foundation
import OpenAPI
import StubServer

/// `stubserver init --openapi API -o DIR [--force]`: writes `DIR/<document>_conf.json`, one
/// session per operation of the document (`StubsFromDocument`). An existing file is kept
/// unless `--force`; the file appears whole or not at all (written aside, then linked or renamed
/// into place); nothing is written outside `DIR`.
enum InitCommand {
    static let name = "init"

    static let options: [CommandLineArguments.Option] = [.openAPI, .value("-o", "--output"), .flag("--force")]

    static func run(_ arguments: [String]) throws -> Int32 {
        guard let parsed = try CommandLineArguments.parse(arguments, options: options, command: name, help: Help.initialise) else {
            return 0
        }
        guard let document = parsed["openapi"] else {
            throw UsageError(message: "missing '--openapi <document>'", command: name)
        }
        guard let output = parsed["output"], !output.isEmpty else {
            throw UsageError(message: "missing '-o <folder>' (where the stubs are written, e.g. Stubs/)", command: name)
        }
        let api = try CheckCommand.loadDocument(document)
        let stubs = StubsFromDocument(api)
        let file = (output.hasSuffix("/") ? output : output + "/") + fileName(for: document)
        try write(stubs.configText, to: file, folder: output, replacing: parsed.has("force"))
        for note in stubs.notes { Console.err("stubserver: warning: \(note)") }
        let count = stubs.sessions.count
        Console.out("\(file): \(count) session\(count == 1 ? "" : "s") for \(api.operations.count) operations of \(document)")
        Console.out("Check them:  stubserver check --openapi \(document) -c \(file)")
        Console.out("Serve them:  stubserver start -c \(file) --openapi \(document)")
        return 0
    }

    /// `api.yaml` → `api_conf.json` (moco's naming); only letters, digits, `-`, `_` and `.` are kept,
    /// so the name can never leave the output folder.
    static func fileName(for document: String) -> String {
        var stem = (document as NSString).lastPathComponent
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = String(stem[..<dot]) }
        let kept = String(stem.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == "." })
        return (kept.isEmpty ? "openapi" : kept) + "_conf.json"
    }

    static func write(_ text: String, to path: String, folder: String, replacing: Bool) throws {
        let files = FileManager.default
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder.boolValue {
            throw RuntimeFailure("\(folder) is a file, not a folder: '-o' names the folder the stubs are written to")
        }
        do {
            try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw RuntimeFailure("cannot create the folder \(folder): \(error.localizedDescription)")
        }
        if !replacing, files.fileExists(atPath: path) || (try? files.destinationOfSymbolicLink(atPath: path)) != nil {
            throw RuntimeFailure("\(path) exists; it is kept (run again with --force to replace it)")
        }
        let temporary = (path as NSString).deletingLastPathComponent + "/.\((path as NSString).lastPathComponent).\(getpid()).tmp"
        guard files.createFile(atPath: temporary, contents: Data(text.utf8)) else {
            throw RuntimeFailure("cannot write \(temporary) (is \(folder) writable?)")
        }
        defer { try? files.removeItem(atPath: temporary) }
        if replacing {
            // rename replaces a file (or a symlink itself, never what it points at) in one step.
            guard rename(temporary, path) == 0 else {
                throw RuntimeFailure("cannot replace \(path): \(String(cString: strerror(errno)))")
            }
        } else {
            // A hard link fails when the name exists, so a file made meanwhile is never overwritten.
            do {
                try files.linkItem(atPath: temporary, toPath: path)
            } catch {
                let exists = files.fileExists(atPath: path)
                throw RuntimeFailure(exists ? "\(path) exists; it is kept (run again with --force to replace it)" : "cannot write \(path)")
            }
        }
    }
}
