import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the files stubs name, never from outside their root: `..` that climbs above the root,
/// absolute paths elsewhere, and symlinks that point out are all refused. Names that come from
/// a request (templates) get exactly the same checks after percent-decoding.
enum ConfinedFiles {
    /// Largest file a stub may serve; a bigger one is a 400 with a message, not a memory spike.
    static let maximumSize = 64 * 1024 * 1024

    struct Failure: Error, Sendable, CustomStringConvertible {
        var message: String
        var isNotFound: Bool
        var description: String { message }
    }

    /// The absolute path of `name` inside `root` after resolving symlinks, or why not.
    static func resolve(_ name: String, root: String) -> Result<String, Failure> {
        guard !name.isEmpty else { return .failure(Failure(message: "the file name is empty", isNotFound: true)) }
        guard !name.utf8.contains(0) else { return .failure(Failure(message: "the file name contains a NUL byte", isNotFound: false)) }
        let rootComponents = normalizedComponents(root)
        let candidate: [String]
        if name.hasPrefix("/") {
            candidate = normalizedComponents(name)
        } else {
            var stack = rootComponents
            for component in name.split(separator: "/", omittingEmptySubsequences: true) {
                switch component {
                case ".": continue
                case "..":
                    guard stack.count > rootComponents.count else {
                        return .failure(Failure(message: "\(quoted(name)) climbs out of the file root \(quoted(root))", isNotFound: false))
                    }
                    stack.removeLast()
                default: stack.append(String(component))
                }
            }
            candidate = stack
        }
        guard candidate.starts(with: rootComponents) else {
            return .failure(Failure(message: "\(quoted(name)) is outside the file root \(quoted(root))", isNotFound: false))
        }
        let lexical = "/" + candidate.joined(separator: "/")
        guard let real = realPath(lexical) else {
            return .failure(Failure(message: "no file \(quoted(name)) in \(quoted(root))", isNotFound: true))
        }
        guard let realRoot = realPath(root) else {
            return .failure(Failure(message: "the file root \(quoted(root)) does not exist", isNotFound: true))
        }
        guard normalizedComponents(real).starts(with: normalizedComponents(realRoot)) else {
            return .failure(Failure(message: "\(quoted(name)) resolves (through a symlink) outside the file root \(quoted(root))", isNotFound: false))
        }
        return .success(real)
    }

    /// Where `name` is: for names written in the config, when moco's working-directory rule
    /// applies (`fallback` is the working directory), the working directory wins as in moco;
    /// otherwise (and when it has no such file) under `root`.
    static func locate(_ name: String, root: String, fallback: String?) -> Result<String, Failure> {
        if let fallback, fallback != root, case .success(let path) = resolve(name, root: fallback), isRegularFile(path) {
            return .success(path)
        }
        return resolve(name, root: root)
    }

    /// The bytes of `name` (see `locate` for where it is looked for).
    static func read(_ name: String, root: String, fallback: String?) -> Result<[UInt8], Failure> {
        let result = locate(name, root: root, fallback: fallback)
        switch result {
        case .failure(let failure): return .failure(failure)
        case .success(let path): return readRegularFile(path, displayName: name)
        }
    }

    static func readRegularFile(_ path: String, displayName: String) -> Result<[UInt8], Failure> {
        let manager = FileManager.default
        guard let attributes = try? manager.attributesOfItem(atPath: path),
            let type = attributes[.type] as? FileAttributeType
        else {
            return .failure(Failure(message: "no file \(quoted(displayName))", isNotFound: true))
        }
        guard type == .typeRegular else {
            return .failure(Failure(message: "\(quoted(displayName)) is not a regular file", isNotFound: false))
        }
        if let size = (attributes[.size] as? NSNumber)?.intValue, size > maximumSize {
            return .failure(Failure(message: "\(quoted(displayName)) is larger than \(maximumSize / 1024 / 1024) MiB", isNotFound: false))
        }
        guard let data = manager.contents(atPath: path) else {
            return .failure(Failure(message: "\(quoted(displayName)) could not be read", isNotFound: false))
        }
        return .success([UInt8](data))
    }

    /// The path names a regular file (after symlinks).
    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    static func normalizedComponents(_ path: String) -> [String] {
        var stack: [String] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..": if !stack.isEmpty { stack.removeLast() }
            default: stack.append(String(component))
            }
        }
        return stack
    }

    /// `realpath(3)`: absolute, symlinks resolved; nil when the path does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
