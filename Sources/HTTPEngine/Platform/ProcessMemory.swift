#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Platform seam: how much memory the process has held, for charging a standalone server's own
/// footprint (code, runtime, threads) to its memory budget.
package enum ProcessMemory {
    /// The most resident memory the process has held so far, in bytes (`getrusage`'s
    /// `ru_maxrss`: kilobytes on Linux, bytes on Darwin). Taken at start it is the idle process
    /// plus whatever loading the configuration briefly used: at least the baseline, never less.
    /// Nil if it cannot be read.
    package static func peakResidentBytes() -> Int? {
        var usage = rusage()
        #if canImport(Glibc)
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return nil }
        return usage.ru_maxrss * 1024
        #else
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return nil }
        return usage.ru_maxrss
        #endif
    }
}
