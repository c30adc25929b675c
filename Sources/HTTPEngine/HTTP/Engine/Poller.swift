#if canImport(Glibc)
import Glibc
import CSystemShims
#elseif canImport(Darwin)
import Darwin
#endif

/// Readiness of one descriptor, as reported by `Poller.wait`.
struct PollEvent {
    var fd: Int32
    var readable: Bool
    var writable: Bool
    /// The peer hung up or the socket has an error; a read will tell which.
    var hangup: Bool
}

/// The one small type that hides epoll (Linux) and kqueue (Darwin): level-triggered interest in
/// reading and/or writing per descriptor, plus a wake-up any thread can trigger.
final class Poller {
    private let pollFD: Int32
    #if canImport(Glibc)
    private let wakeFD: Int32
    private var events: [epoll_event]
    #else
    private var events: [kevent]
    private static let wakeIdent: UInt = 0x5354_5542 // "STUB"
    #endif

    init(capacity: Int = 256) throws {
        #if canImport(Glibc)
        pollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard pollFD >= 0 else { throw SystemError(call: "epoll_create1", code: errno) }
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wakeFD >= 0 else {
            let code = errno
            SystemCalls.close(pollFD)
            throw SystemError(call: "eventfd", code: code)
        }
        events = Array(repeating: epoll_event(), count: capacity)
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = wakeFD
        _ = epoll_ctl(pollFD, EPOLL_CTL_ADD, wakeFD, &event)
        #else
        pollFD = kqueue()
        guard pollFD >= 0 else { throw SystemError(call: "kqueue", code: errno) }
        _ = fcntl(pollFD, F_SETFD, FD_CLOEXEC)
        events = Array(repeating: kevent(), count: capacity)
        var change = kevent(
            ident: Self.wakeIdent, filter: Int16(EVFILT_USER), flags: UInt16(EV_ADD | EV_CLEAR),
            fflags: 0, data: 0, udata: nil
        )
        _ = kevent(pollFD, &change, 1, nil, 0, nil)
        #endif
    }

    deinit {
        #if canImport(Glibc)
        SystemCalls.close(wakeFD)
        #endif
        SystemCalls.close(pollFD)
    }

    /// Starts watching `fd`.
    func add(_ fd: Int32, reading: Bool, writing: Bool) {
        #if canImport(Glibc)
        control(EPOLL_CTL_ADD, fd, reading: reading, writing: writing)
        #else
        apply(fd, filter: EVFILT_READ, enabled: reading, adding: true)
        apply(fd, filter: EVFILT_WRITE, enabled: writing, adding: true)
        #endif
    }

    /// Changes the interest of a watched descriptor.
    func modify(_ fd: Int32, reading: Bool, writing: Bool, wasReading: Bool, wasWriting: Bool) {
        #if canImport(Glibc)
        control(EPOLL_CTL_MOD, fd, reading: reading, writing: writing)
        #else
        if reading != wasReading { apply(fd, filter: EVFILT_READ, enabled: reading, adding: false) }
        if writing != wasWriting { apply(fd, filter: EVFILT_WRITE, enabled: writing, adding: false) }
        #endif
    }

    #if canImport(Glibc)
    private func control(_ operation: Int32, _ fd: Int32, reading: Bool, writing: Bool) {
        var event = epoll_event()
        event.events = Self.mask(reading: reading, writing: writing)
        event.data.fd = fd
        _ = epoll_ctl(pollFD, operation, fd, &event)
    }
    #endif

    /// Stops watching `fd` (call before closing it).
    func remove(_ fd: Int32) {
        #if canImport(Glibc)
        var event = epoll_event()
        _ = epoll_ctl(pollFD, EPOLL_CTL_DEL, fd, &event)
        #else
        var changes = [
            kevent(ident: UInt(fd), filter: Int16(EVFILT_READ), flags: UInt16(EV_DELETE), fflags: 0, data: 0, udata: nil),
            kevent(ident: UInt(fd), filter: Int16(EVFILT_WRITE), flags: UInt16(EV_DELETE), fflags: 0, data: 0, udata: nil),
        ]
        for index in changes.indices { _ = kevent(pollFD, &changes[index], 1, nil, 0, nil) }
        #endif
    }

    /// Wakes a thread blocked in `wait`. Safe from any thread.
    func wake() {
        #if canImport(Glibc)
        var one: UInt64 = 1
        while Glibc.write(wakeFD, &one, 8) < 0 && errno == EINTR {}
        #else
        var change = kevent(
            ident: Self.wakeIdent, filter: Int16(EVFILT_USER), flags: 0,
            fflags: UInt32(NOTE_TRIGGER), data: 0, udata: nil
        )
        _ = kevent(pollFD, &change, 1, nil, 0, nil)
        #endif
    }

    /// Blocks up to `timeoutMilliseconds` (-1 = forever) and calls `body` per ready descriptor.
    /// Returns whether a wake-up was among the events. EINTR counts as "nothing happened".
    @discardableResult
    func wait(timeoutMilliseconds: Int32, _ body: (PollEvent) -> Void) -> Bool {
        var woken = false
        #if canImport(Glibc)
        let count = events.withUnsafeMutableBufferPointer { buffer in
            epoll_wait(pollFD, buffer.baseAddress, Int32(buffer.count), timeoutMilliseconds)
        }
        guard count > 0 else { return false }
        for index in 0..<Int(count) {
            let event = events[index]
            let fd = event.data.fd
            if fd == wakeFD {
                var value: UInt64 = 0
                _ = Glibc.read(wakeFD, &value, 8)
                woken = true
                continue
            }
            let mask = event.events
            body(
                PollEvent(
                    fd: fd,
                    readable: mask & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue) != 0,
                    writable: mask & EPOLLOUT.rawValue != 0,
                    hangup: mask & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0
                ))
        }
        if Int(count) == events.count { events.append(contentsOf: repeatElement(epoll_event(), count: events.count)) }
        #else
        var timeout = timespec()
        var timeoutPointer: UnsafePointer<timespec>? = nil
        let count: Int32 = withUnsafeMutablePointer(to: &timeout) { pointer in
            if timeoutMilliseconds >= 0 {
                pointer.pointee.tv_sec = Int(timeoutMilliseconds / 1000)
                pointer.pointee.tv_nsec = Int(timeoutMilliseconds % 1000) * 1_000_000
                timeoutPointer = UnsafePointer(pointer)
            }
            return events.withUnsafeMutableBufferPointer { buffer in
                kevent(pollFD, nil, 0, buffer.baseAddress, Int32(buffer.count), timeoutPointer)
            }
        }
        guard count > 0 else { return false }
        for index in 0..<Int(count) {
            let event = events[index]
            if event.filter == Int16(EVFILT_USER) { woken = true; continue }
            let isRead = event.filter == Int16(EVFILT_READ)
            body(
                PollEvent(
                    fd: Int32(event.ident),
                    readable: isRead,
                    writable: event.filter == Int16(EVFILT_WRITE),
                    hangup: event.flags & UInt16(EV_EOF) != 0 && !isRead || event.flags & UInt16(EV_ERROR) != 0
                ))
        }
        if Int(count) == events.count { events.append(contentsOf: repeatElement(kevent(), count: events.count)) }
        #endif
        return woken
    }

    #if canImport(Glibc)
    private static func mask(reading: Bool, writing: Bool) -> UInt32 {
        var mask: UInt32 = 0
        if reading { mask |= EPOLLIN.rawValue | EPOLLRDHUP.rawValue }
        if writing { mask |= EPOLLOUT.rawValue }
        return mask
    }
    #else
    private func apply(_ fd: Int32, filter: Int32, enabled: Bool, adding: Bool) {
        let flags: Int32 = enabled ? (EV_ADD | EV_ENABLE) : (adding ? (EV_ADD | EV_DISABLE) : EV_DISABLE)
        var change = kevent(ident: UInt(fd), filter: Int16(filter), flags: UInt16(flags), fflags: 0, data: 0, udata: nil)
        _ = kevent(pollFD, &change, 1, nil, 0, nil)
    }
    #endif
}
