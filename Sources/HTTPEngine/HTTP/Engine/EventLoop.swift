import Foundation

/// Something registered with an event loop that reacts to readiness of its descriptor.
protocol PollHandler: AnyObject {
    func handle(_ event: PollEvent)
}

/// One thread running a `Poller`: descriptor handlers, one-shot timers and a task inbox other
/// threads can post to. Everything except `execute` and `join` runs on the loop's own thread,
/// which is what makes the unchecked `Sendable` sound.
final class EventLoop: @unchecked Sendable {
    let index: Int
    private let poller: Poller

    // Inbox: the only state shared with other threads.
    private let inboxLock = NSLock()
    private var inbox: [@Sendable () -> Void] = []
    private var wakePending = false

    // Loop-thread state.
    private var handlers: [PollHandler?] = []
    private var timerHeap: [(deadline: UInt64, id: UInt64)] = []
    private var timerActions: [UInt64: () -> Void] = [:]
    private var nextTimerID: UInt64 = 1
    private var running = true
    /// The monotonic time at the start of the current loop iteration (nanoseconds).
    private(set) var now: UInt64 = SystemCalls.monotonicNanos()

    private let finished = DispatchSemaphore(value: 0)
    private let threadKey: ThreadMarker

    init(index: Int) throws {
        self.index = index
        poller = try Poller()
        threadKey = ThreadMarker()
    }

    /// Starts the loop's thread.
    func start(name: String) {
        let thread = Thread { [self] in
            ThreadMarker.current = threadKey
            run()
            ThreadMarker.current = nil
            finished.signal()
        }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Waits until the loop has ended (after `exitLoop`).
    func join() { finished.wait() }

    /// True when called on this loop's thread.
    var inLoop: Bool { ThreadMarker.current === threadKey }

    /// Runs `task` on the loop thread soon. Safe from any thread.
    func execute(_ task: @escaping @Sendable () -> Void) {
        inboxLock.lock()
        inbox.append(task)
        let needsWake = !wakePending
        wakePending = true
        inboxLock.unlock()
        if needsWake { poller.wake() }
    }

    // MARK: Loop-thread API

    func register(_ fd: Int32, handler: PollHandler, reading: Bool, writing: Bool) {
        let slot = Int(fd)
        if slot >= handlers.count { handlers.append(contentsOf: repeatElement(nil, count: max(slot + 1 - handlers.count, handlers.count))) }
        handlers[slot] = handler
        poller.add(fd, reading: reading, writing: writing)
    }

    func setInterest(_ fd: Int32, reading: Bool, writing: Bool, wasReading: Bool, wasWriting: Bool) {
        poller.modify(fd, reading: reading, writing: writing, wasReading: wasReading, wasWriting: wasWriting)
    }

    func deregister(_ fd: Int32) {
        poller.remove(fd)
        if Int(fd) < handlers.count { handlers[Int(fd)] = nil }
    }

    /// Every registered handler (for sweeps and stopping).
    var registeredHandlers: [PollHandler] { handlers.compactMap { $0 } }

    /// Runs `action` on the loop once `delay` has passed. Returns an id for `cancelTimer`.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping () -> Void) -> UInt64 {
        schedule(at: SystemCalls.monotonicNanos() &+ delay.nanoseconds, action)
    }

    @discardableResult
    func schedule(at deadline: UInt64, _ action: @escaping () -> Void) -> UInt64 {
        let id = nextTimerID
        nextTimerID += 1
        timerActions[id] = action
        timerHeap.append((deadline, id))
        siftUp(timerHeap.count - 1)
        return id
    }

    func cancelTimer(_ id: UInt64) {
        timerActions[id] = nil
    }

    /// Ends the loop after the current iteration.
    func exitLoop() { running = false }

    // MARK: The loop

    private func run() {
        while running {
            threadKey.wakeups &+= 1 // inbox and timer work after the last wait is a turn of its own
            runInbox()
            runTimers()
            guard running else { break }
            var timeout: Int32 = -1
            if let next = timerHeap.first {
                let current = SystemCalls.monotonicNanos()
                timeout = next.deadline <= current ? 0 : Int32(min((next.deadline - current + 999_999) / 1_000_000, 60_000))
            }
            inboxLock.lock()
            if !inbox.isEmpty { timeout = 0 }
            inboxLock.unlock()
            var woke = false
            poller.wait(timeoutMilliseconds: timeout) { event in
                // A new wake-up starts when the wait returns, before any handler runs.
                if !woke { woke = true; threadKey.wakeups &+= 1 }
                let slot = Int(event.fd)
                if slot < handlers.count, let handler = handlers[slot] {
                    handler.handle(event)
                }
            }
            now = SystemCalls.monotonicNanos()
        }
        runInbox()
        // Timer closures and handlers hold the loop's owners; drop them so the loop, its
        // poller and their descriptors are freed once the server lets go.
        timerActions.removeAll()
        timerHeap.removeAll()
        handlers.removeAll()
    }

    private func runInbox() {
        inboxLock.lock()
        let tasks = inbox
        inbox.removeAll(keepingCapacity: true)
        wakePending = false
        inboxLock.unlock()
        for task in tasks { task() }
    }

    private func runTimers() {
        guard !timerHeap.isEmpty else { return }
        now = SystemCalls.monotonicNanos()
        while let first = timerHeap.first, first.deadline <= now {
            popTimer()
            if let action = timerActions.removeValue(forKey: first.id) { action() }
        }
    }

    private func popTimer() {
        let last = timerHeap.removeLast()
        guard !timerHeap.isEmpty else { return }
        timerHeap[0] = last
        var index = 0
        while true {
            let left = 2 * index + 1
            let right = left + 1
            var smallest = index
            if left < timerHeap.count && timerHeap[left].deadline < timerHeap[smallest].deadline { smallest = left }
            if right < timerHeap.count && timerHeap[right].deadline < timerHeap[smallest].deadline { smallest = right }
            if smallest == index { return }
            timerHeap.swapAt(index, smallest)
            index = smallest
        }
    }

    private func siftUp(_ start: Int) {
        var index = start
        while index > 0 {
            let parent = (index - 1) / 2
            if timerHeap[parent].deadline <= timerHeap[index].deadline { return }
            timerHeap.swapAt(index, parent)
            index = parent
        }
    }
}

/// Identifies the thread a loop runs on, so `stop()` can tell when it is called from a handler.
final class ThreadMarker: @unchecked Sendable {
    /// Counts the loop's turns: bumped when its wait returns, before any handler runs, and before
    /// its inbox and timers. Written and read on the loop's own thread only.
    var wakeups: UInt64 = 0

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static var current: ThreadMarker? {
        get {
            guard let raw = pthread_getspecific(key) else { return nil }
            return Unmanaged<ThreadMarker>.fromOpaque(raw).takeUnretainedValue()
        }
        set {
            pthread_setspecific(key, newValue.map { Unmanaged.passUnretained($0).toOpaque() })
        }
    }
}

/// The event loop turn the calling thread is in, for work that need only happen once per turn
/// (the stub server's file cache drains its inotify queue once per wake-up, not per request).
/// Every request handled in one turn arrived before that turn's wait returned.
package struct EventLoopTurn: Equatable, Sendable {
    let loop: ObjectIdentifier
    let count: UInt64

    /// This thread's current turn; nil off an event loop's thread (a test calling in directly).
    package static var current: EventLoopTurn? {
        guard let marker = ThreadMarker.current else { return nil }
        return EventLoopTurn(loop: ObjectIdentifier(marker), count: marker.wakeups)
    }
}
