#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A growable byte queue for one connection's input or output: bytes are appended at the
/// writer index and consumed from the reader index, without per-byte Swift array traffic.
/// Owned by one connection, used on one event-loop thread.
final class ByteBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>?
    private(set) var capacity = 0
    private(set) var readerIndex = 0
    private(set) var writerIndex = 0

    init() {}

    deinit { free(base) }

    var readableCount: Int { writerIndex - readerIndex }
    var isEmpty: Bool { readerIndex == writerIndex }

    /// The unread bytes.
    var readable: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base.map { $0 + readerIndex }, count: readableCount)
    }

    /// Makes room for at least `count` more bytes after the writer index, compacting first.
    func reserve(_ count: Int) {
        if capacity - writerIndex >= count { return }
        if readerIndex > 0 {
            let unread = readableCount
            if unread > 0, let base { memmove(base, base + readerIndex, unread) }
            readerIndex = 0
            writerIndex = unread
            if capacity - writerIndex >= count { return }
        }
        var newCapacity = max(capacity, 1024)
        while newCapacity - writerIndex < count { newCapacity *= 2 }
        guard let grown = realloc(base, newCapacity) else { fatalError("out of memory growing a connection buffer") }
        base = grown.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
    }

    /// Free space after the writer index (valid after `reserve`).
    var writableSpace: UnsafeMutableRawPointer { UnsafeMutableRawPointer(base! + writerIndex) }
    var writableCount: Int { capacity - writerIndex }

    func didWrite(_ count: Int) { writerIndex += count }

    func consume(_ count: Int) {
        readerIndex += count
        if readerIndex == writerIndex { readerIndex = 0; writerIndex = 0 }
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        reserve(bytes.count)
        memcpy(base! + writerIndex, bytes.baseAddress!, bytes.count)
        writerIndex += bytes.count
    }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    func append(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    func append(byte: UInt8) {
        reserve(1)
        base![writerIndex] = byte
        writerIndex += 1
    }

    /// Appends a non-negative integer in decimal.
    func append(decimal value: Int) {
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var remaining = max(0, value)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[19 - count] = UInt8(48 + remaining % 10)
                remaining /= 10
                count += 1
            } while remaining > 0
            append(UnsafeRawBufferPointer(rebasing: raw[(20 - count)...]))
        }
    }

    /// Releases a large allocation once it is empty, so an idle connection that once carried a
    /// big body does not keep megabytes alive.
    func shrinkIfIdle(above limit: Int) {
        guard isEmpty, capacity > limit else { return }
        free(base)
        base = nil
        capacity = 0
        readerIndex = 0
        writerIndex = 0
    }
}
