import Foundation

#if canImport(Glibc)
import Glibc
import CSystemShims
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens the files stubs name, never from outside their root: `..` that climbs above the root,
/// absolute paths elsewhere, and symlinks that point out are all refused. Names that come from
/// a request (templates) get exactly the same checks after percent-decoding.
///
/// The check and the open are one step: every path component is opened relative to the
/// directory before it without following symlinks (`openat` + `O_NOFOLLOW`), and a symlink is
/// resolved by hand and must land inside the root. So a symlink swapped between the check and
/// the read can never let bytes from outside through (`realpath`-then-read could).
enum ConfinedFiles {
    /// Largest file a stub may serve; a bigger one is a 400 with a message, not a memory spike.
    static let maximumSize = 64 * 1024 * 1024
    /// Symlinks followed per open before giving up (the kernel's own limit is 40).
    static let maximumSymlinks = 40

    struct Failure: Error, Sendable, CustomStringConvertible {
        var message: String
        var isNotFound: Bool
        var description: String { message }
    }

    /// An open regular file inside a root. The caller owns `fd` and closes it.
    struct OpenedFile {
        let fd: Int32
        let identity: FileIdentity
        /// The root as configured plus the file's path below it, symlinks resolved: the same
        /// file always has the same key, whatever name reached it.
        let key: String
    }

    /// The components of `name` below `root` after resolving `.` and `..` lexically, or why
    /// the name leaves the root. Absolute names are fine when they lie under the root.
    static func confinedComponents(_ name: String, root: String) -> Result<[String], Failure> {
        guard !name.isEmpty else { return .failure(Failure(message: "the file name is empty", isNotFound: true)) }
        guard !name.utf8.contains(0) else { return .failure(Failure(message: "the file name contains a NUL byte", isNotFound: false)) }
        if name.hasPrefix("/") {
            let rootComponents = normalizedComponents(root)
            let candidate = normalizedComponents(name)
            guard candidate.starts(with: rootComponents) else {
                return .failure(Failure(message: "\(quoted(name)) is outside the file root \(quoted(root))", isNotFound: false))
            }
            return .success(Array(candidate.dropFirst(rootComponents.count)))
        }
        var stack: [String] = []
        for component in name.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..":
                guard !stack.isEmpty else {
                    return .failure(Failure(message: "\(quoted(name)) climbs out of the file root \(quoted(root))", isNotFound: false))
                }
                stack.removeLast()
            default: stack.append(String(component))
            }
        }
        return .success(stack)
    }

    /// The absolute path of `name` inside `root` after resolving symlinks, or why not. For
    /// messages and the list of watched files; serving goes through `open`, which has no race.
    static func resolve(_ name: String, root: String) -> Result<String, Failure> {
        let components: [String]
        switch confinedComponents(name, root: root) {
        case .failure(let failure): return .failure(failure)
        case .success(let found): components = found
        }
        let lexical = "/" + (normalizedComponents(root) + components).joined(separator: "/")
        guard let real = realPath(lexical) else {
            return .failure(Failure(message: "no file \(quoted(name)) in \(quoted(root))", isNotFound: true))
        }
        guard let realRoot = realPath(root) else {
            return .failure(Failure(message: "the file root \(quoted(root)) does not exist", isNotFound: true))
        }
        guard normalizedComponents(real).starts(with: normalizedComponents(realRoot)) else {
            return .failure(
                Failure(message: "\(quoted(name)) resolves (through a symlink) outside the file root \(quoted(root))", isNotFound: false))
        }
        return .success(real)
    }

    /// Where `name` is: for names written in the config, when moco's working-directory rule
    /// applies (`fallback` is the working directory), the working directory wins as in moco;
    /// otherwise (and when it has no such file) under `root`. For messages and watch lists;
    /// serving goes through `open`, which has no check-then-read race.
    static func locate(_ name: String, root: String, fallback: String?) -> Result<String, Failure> {
        if let fallback, fallback != root, case .success(let path) = resolve(name, root: fallback), isRegularFile(path) {
            return .success(path)
        }
        return resolve(name, root: root)
    }

    /// The bytes of `name` (looked for as `locate` does), fresh on every call, served from
    /// `FileCache.shared` when the file is unchanged.
    static func read(_ name: String, root: String, fallback: String?) -> Result<[UInt8], Failure> {
        FileCache.shared.read(name, root: root, fallback: fallback).map(\.bytes)
    }

    /// A name checked and split once (a literal file name in the config), so serving it
    /// builds no strings: the components below the root, and the cache key.
    struct Target: Sendable {
        let name: String
        let root: String
        let components: [String]
        /// The components joined with `/`.
        let relative: String
        let key: String

        init(_ name: String, root: String) throws(Failure) {
            switch ConfinedFiles.confinedComponents(name, root: root) {
            case .failure(let failure): throw failure
            case .success(let components):
                self.name = name
                self.root = root
                self.components = components
                relative = components.joined(separator: "/")
                key = root + "\u{0}" + relative
            }
        }
    }

    /// Opens `name` for reading, confined to `root`. `realRoot`, when known, allows a one-call
    /// open on Linux (`openat2` refusing every symlink) and Darwin (`O_NOFOLLOW_ANY`); any
    /// failure there falls back to the component walk, which gives the precise answer.
    static func open(_ name: String, root: String, realRoot: String?) -> Result<OpenedFile, Failure> {
        do throws(Failure) {
            return open(try Target(name, root: root), realRoot: realRoot)
        } catch {
            return .failure(error)
        }
    }

    static func open(_ target: Target, realRoot: String?) -> Result<OpenedFile, Failure> {
        guard !target.components.isEmpty else {
            return .failure(Failure(message: "\(quoted(target.name)) is not a regular file", isNotFound: false))
        }
        if let realRoot {
            let fd = openWithoutSymlinks(realRoot + "/" + target.relative)
            if fd >= 0 { return finish(fd, name: target.name, key: target.key) }
            // With no symlink in the root's own path, a missing component is the answer (a
            // symlink on the way would have been ELOOP): skip the walk, which would only agree.
            let code = errno
            if (code == ENOENT || code == ENOTDIR) && realRoot == target.root {
                return .failure(Failure(message: "no file \(quoted(target.name)) in \(quoted(target.root))", isNotFound: true))
            }
        }
        return walk(target.components, name: target.name, root: target.root)
    }

    private static let fileFlags = RegularFile.readFlags | O_NOFOLLOW
    #if canImport(Glibc)
    /// O_PATH: a directory handle for lookups only, so a directory with search but no read
    /// permission still works. Glibc hides the constant behind _GNU_SOURCE.
    private static let directoryFlags = Int32(0o10000000) | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
    #else
    private static let directoryFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
    #endif

    /// A descriptor, or -1 with `errno` set.
    private static func openWithoutSymlinks(_ path: String) -> Int32 {
        #if canImport(Glibc)
        stubserver_open_no_symlinks(path, fileFlags)
        #elseif canImport(Darwin)
        Darwin.open(path, fileFlags | O_NOFOLLOW_ANY)
        #endif
    }

    /// Opens component by component from the root, never following a symlink implicitly; a
    /// symlink's target is spliced into the remaining path and must stay inside the root.
    private static func walk(_ components: [String], name: String, root: String) -> Result<OpenedFile, Failure> {
        let rootFD = FileDescriptorCalls.open(root, directoryFlags & ~O_NOFOLLOW)
        guard rootFD >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                return .failure(Failure(message: "the file root \(quoted(root)) does not exist", isNotFound: true))
            }
            return .failure(
                Failure(message: "the file root \(quoted(root)) cannot be opened: \(String(cString: strerror(code)))", isNotFound: false))
        }
        defer { _ = FileDescriptorCalls.close(rootFD) }
        var pending = Array(components.reversed())
        var resolved: [String] = []
        var directory = rootFD
        var links = 0
        func leave(_ next: Int32) {
            if directory != rootFD { _ = FileDescriptorCalls.close(directory) }
            directory = next
        }
        defer { if directory != rootFD { _ = FileDescriptorCalls.close(directory) } }
        while let component = pending.popLast() {
            let isLast = pending.isEmpty
            let fd = openat(directory, component, isLast ? fileFlags : directoryFlags)
            if fd >= 0 {
                if isLast { return finish(fd, name: name, key: root + "\u{0}" + (resolved + [component]).joined(separator: "/")) }
                resolved.append(component)
                leave(fd)
                continue
            }
            let code = errno
            guard code == ELOOP || code == ENOTDIR || code == EMLINK, let target = readLink(directory, component) else {
                switch code {
                case ENOENT, ENOTDIR:
                    return .failure(Failure(message: "no file \(quoted(name)) in \(quoted(root))", isNotFound: true))
                default:
                    return .failure(
                        Failure(message: "\(quoted(name)) could not be opened: \(String(cString: strerror(code)))", isNotFound: false))
                }
            }
            links += 1
            guard links <= maximumSymlinks else {
                return .failure(Failure(message: "\(quoted(name)) goes through more than \(maximumSymlinks) symlinks", isNotFound: false))
            }
            guard let base = spliceLink(target, at: resolved, root: root) else {
                return .failure(
                    Failure(
                        message: "\(quoted(name)) resolves (through a symlink) outside the file root \(quoted(root))", isNotFound: false))
            }
            // Start again from the root with the link's target in place of the link.
            pending.append(contentsOf: base.reversed())
            resolved = []
            leave(rootFD)
        }
        return .failure(Failure(message: "\(quoted(name)) is not a regular file", isNotFound: false))
    }

    /// The path below the root that a symlink found at `directory` (below the root) points to,
    /// or nil when it leaves the root.
    static func spliceLink(_ target: String, at directory: [String], root: String) -> [String]? {
        var stack: [String]
        if target.hasPrefix("/") {
            let absolute = normalizedComponents(target)
            let roots = [normalizedComponents(root)] + (realPath(root).map { [normalizedComponents($0)] } ?? [])
            guard let match = roots.first(where: { absolute.starts(with: $0) }) else { return nil }
            return Array(absolute.dropFirst(match.count))
        }
        stack = directory
        for component in target.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..":
                guard !stack.isEmpty else { return nil }
                stack.removeLast()
            default: stack.append(String(component))
            }
        }
        return stack
    }

    private static func readLink(_ directory: Int32, _ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlinkat(directory, name, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func finish(_ fd: Int32, name: String, key: String) -> Result<OpenedFile, Failure> {
        switch RegularFile.check(fd, name: name, cap: maximumSize, kind: "response") {
        case .failure(let failure): return .failure(Failure(message: failure.message, isNotFound: false))
        case .success(let info): return .success(OpenedFile(fd: fd, identity: FileIdentity(info), key: key))
        }
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

/// What tells one version of a file from another without reading it: device, inode, size and
/// the modification and change times in nanoseconds. An in-place edit changes the times (and
/// usually the size); an atomic rename changes the inode.
struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int
    var modified: Int64
    var changed: Int64

    init(device: UInt64, inode: UInt64, size: Int, modified: Int64, changed: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    /// `dev_t` is unsigned on Linux but `Int32` on Darwin, where `UInt64(_:)` would trap on a device
    /// number with the top bit set; its bit pattern is the identity.
    static func deviceNumber<Raw: FixedWidthInteger>(_ raw: Raw) -> UInt64 {
        let bits = UInt64(truncatingIfNeeded: raw)
        return Raw.bitWidth >= 64 ? bits : bits & ((1 << UInt64(Raw.bitWidth)) - 1)
    }

    init(_ info: stat) {
        #if canImport(Glibc)
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        #else
        let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        let changed = Int64(info.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(info.st_ctimespec.tv_nsec)
        #endif
        self.init(
            device: Self.deviceNumber(info.st_dev), inode: UInt64(info.st_ino), size: Int(info.st_size), modified: modified,
            changed: changed)
    }
}

extension ConfinedFiles {
    /// Reads to the end (at most `ConfinedFiles.maximumSize` + 1 bytes).
    static func readAll(_ fd: Int32, expected: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var capacity = max(expected + 1, 512)
        while true {
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: capacity - start))
            var filled = start
            while filled < bytes.count {
                let count = bytes.withUnsafeMutableBytes { buffer in
                    FileDescriptorCalls.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
                }
                if count < 0 {
                    if errno == EINTR { continue }
                    return nil
                }
                if count == 0 {
                    bytes.removeSubrange(filled...)
                    return bytes
                }
                filled += count
            }
            guard capacity <= ConfinedFiles.maximumSize else {
                bytes.removeSubrange(filled...)
                return bytes
            }
            capacity *= 2
        }
    }
}
