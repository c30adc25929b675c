#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Platform seam: forking a child for `throwAssertion`, and how it ended.
///
/// Linux calls `fork` directly. On macOS Swift's Darwin overlay marks `fork()` unavailable
/// ("Please use threads or posix_spawn*()"), so the C function is looked up through the dynamic
/// linker (`dlsym(RTLD_DEFAULT, "fork")`) — the same libc entry point C code calls. iOS, tvOS,
/// watchOS and visionOS (devices and simulators) report `.unsupported`: devices deny `fork`, and a
/// simulator test process is an app whose runtime services do not survive a fork.
enum ProcessFork {
    enum Result { case parent(Int32), child, failed(Int32), unsupported(String) }
    enum Status { case exited(Int32), signalled(Int32) }
    enum Poll { case running, ended(Status), failed(Int32) }

    /// SIGILL and SIGTRAP have the same numbers on Linux and Darwin.
    static let illegalInstruction: Int32 = 4
    static let breakpointTrap: Int32 = 5

    static func fork() -> Result {
        #if canImport(Glibc)
        fflush(nil) // flush every stream so buffered output is not written twice
        let pid = Glibc.fork()
        #elseif os(macOS)
        typealias CFork = @convention(c) () -> pid_t
        // RTLD_DEFAULT is `((void *) -2)` in <dlfcn.h>, a macro Swift does not import.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: -2), "fork") else {
            return .unsupported("throwAssertion could not find fork() in this process")
        }
        fflush(nil)
        let pid = unsafeBitCast(symbol, to: CFork.self)()
        #else
        return .unsupported(
            "throwAssertion is unavailable on iOS, tvOS, watchOS and visionOS (devices and simulators): "
                + "it runs the expression in a forked child process, which these platforms do not allow; run this check on macOS or Linux")
        #endif
        #if canImport(Glibc) || os(macOS)
        if pid < 0 { return .failed(errno) }
        if pid == 0 { restoreDefaultCrashHandling() }
        return pid == 0 ? .child : .parent(pid)
        #endif
    }

    /// The signals a crash raises; SIGILL and SIGTRAP are Swift's traps.
    static let crashSignals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGBUS, SIGSEGV]

    /// In the child: a crash ends it at once, by its signal. The Swift runtime's crash handler,
    /// inherited over `fork`, would start `swift-backtrace` and wait for it to symbolicate (seconds,
    /// past the 10 s limit on a loaded machine); that helper also inherits the test's output pipe
    /// and can outlive the test, so `swift test` never sees the end of the output.
    private static func restoreDefaultCrashHandling() {
        for signalNumber in crashSignals { _ = signal(signalNumber, SIG_DFL) }
    }

    /// In the child: send its standard error (the trap's crash report) to /dev/null.
    static func silenceStandardError() {
        let devNull = open("/dev/null", O_WRONLY)
        if devNull >= 0 { _ = dup2(devNull, 2) }
    }

    /// In the child: leave without running atexit handlers or flushing the parent's buffers again.
    static func exitImmediately(_ code: Int32) -> Never {
        _exit(code)
    }

    /// Whether the child has ended, without waiting. Decodes the status as <sys/wait.h>'s
    /// WIFSIGNALED/WTERMSIG/WEXITSTATUS do (function-like macros Swift does not import).
    static func poll(_ pid: Int32) -> Poll {
        var status: Int32 = 0
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done == 0 { return .running }
            if errno == EINTR { continue }
            return .failed(errno)
        }
        let signal = status & 0x7f
        return .ended(signal != 0 ? .signalled(signal) : .exited((status >> 8) & 0xff))
    }

    /// Kills a child that is still running and reaps it.
    static func kill(_ pid: Int32) {
        #if canImport(Glibc)
        _ = Glibc.kill(pid, SIGKILL)
        #elseif canImport(Darwin)
        _ = Darwin.kill(pid, SIGKILL)
        #endif
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }
}
