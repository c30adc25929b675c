import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Passes when evaluating the expression stops the program with a Swift runtime trap
/// (`precondition`, `fatalError`, `preconditionFailure`, a forced unwrap of nil, an array index
/// out of range): `expect { _ = stack.pop() }.to(throwAssertion())`.
///
/// The expression runs in a forked child process, so a trap ends only the child; anything the
/// expression changes (variables, files it writes in memory) stays in the child. Available on Linux
/// and macOS; on iOS, tvOS, watchOS and visionOS (devices and simulators) the matcher fails saying it
/// is unavailable there. Only a trap counts: Swift traps raise SIGILL (x86_64) or SIGTRAP (arm64);
/// a child that crashes otherwise (SIGSEGV, SIGBUS, an `abort()`'s SIGABRT) fails the matcher with
/// the signal's name. A child still running after 10 s is killed and the matcher fails.
public func throwAssertion<T>() -> Matcher<T> {
    Matcher { actual in
        let expectation = "throw an assertion"
        switch TrapProbe.run({ _ = try? actual.evaluate() }) {
        case .trapped(let signal):
            return MatchResult(true, expectation: expectation, actual: "a trap (\(TrapProbe.signalName(signal)))")
        case .crashed(let signal):
            return MatchResult(
                false, expectation: expectation,
                actual: "a crash by \(TrapProbe.signalName(signal)), which is not a Swift trap")
        case .returned:
            return MatchResult(false, expectation: expectation, actual: "no assertion")
        case .exited(let code):
            return MatchResult(false, expectation: expectation, actual: "the process exited with status \(code)")
        case .unavailable(let reason):
            return MatchResult(status: .failsRegardless, expectation: expectation, actual: nil, details: reason)
        }
    }
}

/// Runs a closure in a forked child and reports how the child ended.
enum TrapProbe {
    enum Outcome: Equatable {
        case returned, trapped(Int32), crashed(Int32), exited(Int32), unavailable(String)
    }

    static let childReturned: Int32 = 0
    static let limit: TimeInterval = 10

    /// How a child that ended by `signal` is judged: Swift's traps (`Builtin.int_trap`: `ud2` on
    /// x86_64, `brk` on arm64) arrive as SIGILL or SIGTRAP on Linux and Darwin alike.
    static func outcome(ofSignal signal: Int32) -> Outcome {
        signal == ProcessFork.illegalInstruction || signal == ProcessFork.breakpointTrap ? .trapped(signal) : .crashed(signal)
    }

    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            ProcessFork.illegalInstruction: "SIGILL", ProcessFork.breakpointTrap: "SIGTRAP", 6: "SIGABRT", 11: "SIGSEGV", 9: "SIGKILL",
        ]
        return names[signal].map { "\($0), signal \(signal)" } ?? "signal \(signal)"
    }

    static func run(_ body: () -> Void) -> Outcome {
        let pid: Int32
        switch ProcessFork.fork() {
        case .unsupported(let reason): return .unavailable(reason)
        case .failed(let code): return .unavailable("fork failed (errno \(code)); cannot test for an assertion here")
        case .child:
            // The child: silence the trap's crash report and leave without running atexit handlers.
            ProcessFork.silenceStandardError()
            body()
            ProcessFork.exitImmediately(childReturned)
        case .parent(let child): pid = child
        }
        let deadline = Date(timeIntervalSinceNow: limit)
        let status: ProcessFork.Status
        while true {
            switch ProcessFork.poll(pid) {
            case .running:
                if Date() >= deadline {
                    ProcessFork.kill(pid)
                    return .unavailable("the expression was still running after \(Int(limit)) s; it was stopped")
                }
                usleep(2_000)
                continue
            case .failed(let code):
                return .unavailable("waitpid failed (errno \(code))")
            case .ended(let ended):
                status = ended
            }
            break
        }
        switch status {
        case .signalled(let signal): return outcome(ofSignal: signal)
        case .exited(let code): return code == childReturned ? .returned : .exited(code)
        }
    }
}
