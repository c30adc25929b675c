import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads an OpenAPI document or a file one of its `$ref`s names, the way the server reads every
/// file: confined to a root folder (the top document's folder; symlinks resolved), opened
/// non-blocking, regular files only, the size taken from `fstat` and checked against a cap before
/// a byte is read.
///
/// ```swift
/// let bytes = try DocumentFile.read("schemas/pet.json", relativeTo: "/srv/api", root: "/srv/api")
/// ```
package enum DocumentFile {
    /// OpenAPI documents are written by hand or generated; GitHub's REST description is ~10 MB.
    package static let cap = 32 * 1024 * 1024

    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }

    /// Absolute, lexically normalized (`.` and `..` folded).
    package static func normalize(_ path: String, relativeTo base: String) -> String {
        let joined = path.hasPrefix("/") ? path : base + "/" + path
        var parts: [Substring] = []
        for part in joined.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` (absolute) lies inside `root`, both as written and with symlinks resolved.
    package static func isConfined(_ path: String, to root: String) -> Bool {
        func inside(_ candidate: String, _ folder: String) -> Bool {
            folder == "/" || candidate == folder || candidate.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
        }
        guard inside(path, root) else { return false }
        guard let real = realPath(path) else { return true } // missing: reported when opened
        return inside(real, realPath(root) ?? root)
    }

    /// The bytes of `path` (absolute), refusing anything outside `root`, not regular, or
    /// larger than `cap`. `name` is how messages call the file.
    package static func read(_ path: String, name: String, root: String?, cap: Int = DocumentFile.cap) throws(Failure) -> [UInt8] {
        if let root, !isConfined(path, to: root) {
            throw Failure(
                message:
                    "\(PathText.quoted(name)) is outside the document's folder \(PathText.quoted(root)); a $ref may only name files inside it"
            )
        }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw Failure(message: "no such file \(PathText.quoted(name)) (looked for \(path))") }
            throw Failure(message: "cannot read \(PathText.quoted(name)): \(String(cString: strerror(code)))")
        }
        defer { _ = close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw Failure(message: "cannot read \(PathText.quoted(name)): \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw Failure(message: "\(PathText.quoted(name)) is not a regular file")
        }
        let size = Int(info.st_size)
        guard size <= cap else {
            throw Failure(message: "\(PathText.quoted(name)) is \(size) bytes; OpenAPI documents are capped at \(cap) bytes")
        }
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                readDescriptor(fd, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(message: "cannot read \(PathText.quoted(name)): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            filled += count
        }
        guard filled <= size else {
            throw Failure(message: "\(PathText.quoted(name)) grew while read; OpenAPI documents are capped at \(cap) bytes")
        }
        bytes.removeSubrange(filled...)
        return bytes
    }
}

/// `read(2)` (named apart from `DocumentFile.read`).
private func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(fd, buffer, count)
    #elseif canImport(Darwin)
    Darwin.read(fd, buffer, count)
    #endif
}
