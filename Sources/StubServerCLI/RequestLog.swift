import Foundation

/// The per-request log lines of `start`, written by a thread of their own so an event loop never
/// waits on stdout: a `write` per request costs a system call on the loop, and a slow reader (a
/// terminal, `| less`, an IDE console) would stall every connection of that loop. Lines queue in
/// a bounded buffer and are written in batches; when the reader falls more than `limit` bytes
/// behind, lines are dropped and counted rather than blocking or growing without bound.
///
/// The writer wakes only when the buffer goes from empty to non-empty, then lets lines gather for
/// `coalescing` before it writes them in one `write`: waking it for every line cost a futex call and
/// a context switch per request, which cut a pinned server from ~60,000 to ~13,000 requests/s.
///
/// ```swift
/// let log = RequestLog()
/// options.logger = { entry in log.append(entry.description) }   // on an event-loop thread
/// log.flush()                                                    // before printing anything else
/// ```
final class RequestLog: @unchecked Sendable {
    let limit: Int
    /// How long the writer lets lines gather after the first one arrives: short enough that a
    /// person watching the log sees each request at once, long enough to batch a burst.
    let coalescing: TimeInterval
    private let condition = NSCondition()
    private var pending: [UInt8] = []
    private var writing = false
    private var dropped = 0

    init(limit: Int = 1024 * 1024, coalescing: TimeInterval = 0.005) {
        self.limit = limit
        self.coalescing = coalescing
        let thread = Thread { [self] in run() }
        thread.name = "stubserver-log"
        thread.start()
    }

    /// Queues one line (without its newline). Never blocks on the output.
    func append(_ line: String) {
        condition.lock()
        defer { condition.unlock() }
        let wasIdle = pending.isEmpty && dropped == 0
        if pending.count + line.utf8.count < limit {
            pending.append(contentsOf: line.utf8)
            pending.append(UInt8(ascii: "\n"))
        } else {
            dropped += 1
        }
        // Only the first line after a write needs to wake the writer; later ones join its batch.
        if wasIdle { condition.signal() }
    }

    /// Waits until every queued line is written, so what is printed next comes after them.
    func flush() {
        condition.lock()
        while !pending.isEmpty || writing || dropped > 0 { condition.wait() }
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while pending.isEmpty && dropped == 0 { condition.wait() }
            condition.unlock()
            Thread.sleep(forTimeInterval: coalescing)
            condition.lock()
            var batch = pending
            pending.removeAll(keepingCapacity: true)
            if dropped > 0 {
                batch.append(contentsOf: "stubserver: \(dropped) request log lines dropped (the output is not read fast enough)\n".utf8)
                dropped = 0
            }
            writing = true
            condition.unlock()
            Console.write(batch, to: 1)
            condition.lock()
            writing = false
            condition.broadcast()
            condition.unlock()
        }
    }
}
