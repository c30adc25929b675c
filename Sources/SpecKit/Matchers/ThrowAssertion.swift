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
/// expression changes (variables, files it writes in memory) stays in the child. Available where
/// `fork` is (Linux, macOS); elsewhere the matcher fails saying so. A child still running after
/// 10 s is killed and the matcher fails.
public func throwAssertion<T>() -> Matcher<T> {
    Matcher { actual in
        let expectation = "throw an assertion"
        switch TrapProbe.run({ _ = try? actual.evaluate() }) {
        case .trapped(let signal):
            return MatchResult(true, expectation: expectation, actual: "a trap (signal \(signal))")
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
        case returned, trapped(Int32), exited(Int32), unavailable(String)
    }

    static let childReturned: Int32 = 0
    static let limit: TimeInterval = 10

    static func run(_ body: () -> Void) -> Outcome {
        #if canImport(Glibc) || canImport(Darwin)
        fflush(nil)  // flush every stream so buffered output is not written twice
        let pid = fork()
        if pid < 0 { return .unavailable("fork failed (errno \(errno)); cannot test for an assertion here") }
        if pid == 0 {
            // The child: silence the trap's crash report and leave without running atexit handlers.
            let devNull = open("/dev/null", O_WRONLY)
            if devNull >= 0 { _ = dup2(devNull, 2) }
            body()
            _exit(childReturned)
        }
        let deadline = Date(timeIntervalSinceNow: limit)
        var status: Int32 = 0
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done < 0 && errno != EINTR { return .unavailable("waitpid failed (errno \(errno))") }
            if Date() >= deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                return .unavailable("the expression was still running after \(Int(limit)) s; it was stopped")
            }
            usleep(2_000)
        }
        let signal = status & 0x7f
        if signal != 0 { return .trapped(signal) }
        let code = (status >> 8) & 0xff
        return code == childReturned ? .returned : .exited(code)
        #else
        return .unavailable("throwAssertion needs fork(), which this platform does not have")
        #endif
    }
}
