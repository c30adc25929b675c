import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way the server opens a file it reads: never blocking, only regular files, never
/// more than a cap. `open(2)` on a FIFO blocks until a writer appears (and a device may do
/// anything), so every open is `O_NONBLOCK` and the type is checked with `fstat` on the open
/// descriptor before any read; the size comes from the same `fstat`, so a 10 GB file is refused
/// before one byte of it is read.
///
/// ```swift
/// let bytes = try RegularFile.read("/srv/stubs/tape.json", cap: RegularFile.tapeCap, kind: "tape")
/// ```
enum RegularFile {
    /// Configuration files and includes (JSON written by hand).
    static let configCap = 16 * 1024 * 1024
    /// `record`/`replay` tapes.
    static let tapeCap = 64 * 1024 * 1024
    /// `failover`/`playback` saved-exchange files.
    static let savedExchangesCap = 64 * 1024 * 1024

    struct Failure: Error, Sendable, CustomStringConvertible {
        var message: String
        var isNotFound: Bool
        var description: String { message }
    }

    /// Read-only, non-blocking (FIFOs, devices), no controlling terminal, closed on exec.
    static let readFlags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC

    /// `fstat`s an open descriptor: a regular file of at most `cap` bytes, or why not (the
    /// descriptor is closed then). `name` is how messages call the file.
    static func check(_ fd: Int32, name: String, cap: Int, kind: String) -> Result<stat, Failure> {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            _ = close(fd)
            return .failure(Failure(message: "\(quoted(name)) could not be read: \(String(cString: strerror(code)))", isNotFound: false))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            _ = close(fd)
            return .failure(Failure(message: "\(quoted(name)) is not a regular file (\(typeName(info.st_mode)))", isNotFound: false))
        }
        guard Int(info.st_size) <= cap else {
            _ = close(fd)
            return .failure(
                Failure(
                    message: "\(quoted(name)) is \(byteCount(Int(info.st_size))); \(kind) files are capped at \(byteCount(cap))",
                    isNotFound: false))
        }
        return .success(info)
    }

    /// Opens `path` (symlinks followed: callers confine the path first) and checks it.
    static func open(_ path: String, cap: Int, kind: String) -> Result<(fd: Int32, info: stat), Failure> {
        let fd = FileDescriptorCalls.open(path, readFlags)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return .failure(Failure(message: "no such file \(quoted(path))", isNotFound: true)) }
            return .failure(Failure(message: "cannot read \(quoted(path)): \(String(cString: strerror(code)))", isNotFound: false))
        }
        return check(fd, name: path, cap: cap, kind: kind).map { (fd, $0) }
    }

    /// The whole file, read after the checks; throws when it is missing, not regular, too
    /// large (or grows past the cap while read) or unreadable.
    static func read(_ path: String, cap: Int, kind: String) throws(Failure) -> [UInt8] {
        let opened: (fd: Int32, info: stat)
        switch open(path, cap: cap, kind: kind) {
        case .failure(let failure): throw failure
        case .success(let found): opened = found
        }
        defer { _ = close(opened.fd) }
        return try readAll(opened.fd, expected: Int(opened.info.st_size), cap: cap, name: path, kind: kind)
    }

    /// Reads an open regular file to its end, never more than `cap` bytes.
    static func readAll(_ fd: Int32, expected: Int, cap: Int, name: String, kind: String) throws(Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(expected, 0))
        var filled = 0
        while true {
            if filled == bytes.count {
                guard bytes.count < cap + 1 else {
                    throw Failure(
                        message: "\(quoted(name)) grew past \(byteCount(cap)) while read; \(kind) files are capped at \(byteCount(cap))",
                        isNotFound: false)
                }
                bytes.append(contentsOf: repeatElement(0, count: min(max(4096, bytes.count), cap + 1 - bytes.count)))
            }
            let count = bytes.withUnsafeMutableBytes { buffer in
                readDescriptor(fd, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(message: "\(quoted(name)) could not be read: \(String(cString: strerror(errno)))", isNotFound: false)
            }
            if count == 0 { break }
            filled += count
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// `1.5 GiB`, `16 MiB`, `512 bytes`.
    static func byteCount(_ count: Int) -> String {
        let units = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
        for (size, unit) in units where count >= size {
            let value = Double(count) / Double(size)
            return value == value.rounded() ? "\(Int(value)) \(unit)" : String(format: "%.1f %@", value, unit)
        }
        return "\(count) bytes"
    }

    private static func typeName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a plain file"
        }
    }
}

@inline(__always)
private func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(fd, buffer, count)
    #else
    Darwin.read(fd, buffer, count)
    #endif
}
