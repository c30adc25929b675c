#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Platform seam: the process's open-file limit (`RLIMIT_NOFILE`), raised so many idle keep-alive
/// clients fit. `stubserver start` calls `raise()` once at start.
///
/// On macOS `rlim_max` is usually `RLIM_INFINITY`, and `setrlimit` with a soft limit above
/// `kern.maxfilesperproc` fails with EINVAL (xnu's `dosetrlimit`; man setrlimit, COMPATIBILITY), which
/// left the server at the login default of 256 descriptors. So the target is clamped to that sysctl
/// there, and a refused raise is retried with the per-process maximum.
package enum DescriptorLimit {
    package static let wanted: UInt64 = 65536

    /// The soft limit to ask for: `wanted`, never above the hard limit or the per-process cap
    /// (nil where the system has none), never below the current soft limit.
    package static func target(current: UInt64, hard: UInt64, perProcessCap: UInt64?) -> UInt64 {
        var target = min(hard, wanted)
        if let cap = perProcessCap { target = min(target, cap) }
        return max(target, current)
    }

    /// Raises the soft limit; returns the limit in force afterwards (nil if it cannot be read).
    @discardableResult
    package static func raise() -> UInt64? {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return nil }
        let current = UInt64(limit.rlim_cur)
        let target = Self.target(current: current, hard: UInt64(limit.rlim_max), perProcessCap: perProcessCap())
        guard target > current else { return current }
        limit.rlim_cur = rlim_t(target)
        if setrlimit(resource, &limit) == 0 { return target }
        #if canImport(Darwin)
        // Some releases compare against OPEN_MAX (10240) instead; try that before giving up.
        if errno == EINVAL, target > 10240 {
            limit.rlim_cur = rlim_t(max(current, 10240))
            if setrlimit(resource, &limit) == 0 { return UInt64(limit.rlim_cur) }
        }
        #endif
        return current
    }

    /// `kern.maxfilesperproc` on Darwin; nil on Linux (the hard limit is the cap there).
    static func perProcessCap() -> UInt64? {
        #if canImport(Darwin)
        var value: Int32 = 0
        var size = MemoryLayout<Int32>.size
        guard sysctlbyname("kern.maxfilesperproc", &value, &size, nil, 0) == 0, value > 0 else { return nil }
        return UInt64(value)
        #else
        return nil
        #endif
    }
}
