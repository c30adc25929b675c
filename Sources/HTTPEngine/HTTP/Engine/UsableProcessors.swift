import Foundation

#if canImport(Glibc)
import Glibc
import CSystemShims
#elseif canImport(Darwin)
import Darwin
#endif

/// How many CPUs this process may actually use, which is what the number of event loops should
/// follow: a server pinned with `taskset -c 0` or in a container limited to one CPU that
/// still starts one loop per *machine* core makes its loops fight for one core (p99 grows
/// tenfold). Linux: the `sched_getaffinity` mask, lowered by the cgroup v2 `cpu.max` quota of
/// the process's cgroup and its ancestors (rounded up). Darwin: `activeProcessorCount`.
/// Never less than 1.
///
/// ```swift
/// UsableProcessors.count          // 1 under `taskset -c 0`, 2 with cpu.max "200000 100000"
/// ```
public enum UsableProcessors {
    public static var count: Int {
        let machine = max(1, ProcessInfo.processInfo.activeProcessorCount)
        #if canImport(Glibc)
        let affinity = Int(stubserver_affinity_cpu_count())
        var usable = affinity > 0 ? affinity : machine
        if let quota = cgroupQuota() { usable = min(usable, quota) }
        return max(1, usable)
        #else
        return machine
        #endif
    }

    /// The CPUs a cgroup v2 `cpu.max` line allows ("QUOTA PERIOD" in microseconds, or "max
    /// PERIOD" for no limit), rounded up: "150000 100000" → 2, "max 100000" → nil.
    static func cpus(fromCPUMax text: String) -> Int? {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        guard fields.count == 2, fields[0] != "max",
            let quota = Int(fields[0]), let period = Int(fields[1]), quota > 0, period > 0
        else { return nil }
        return max(1, (quota + period - 1) / period)
    }

    /// The cgroup v2 path of this process from `/proc/self/cgroup` (the `0::/path` line).
    static func cgroupPath(fromProcCgroup text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("0::") {
            return String(line.dropFirst(3))
        }
        return nil
    }

    /// The tightest `cpu.max` from the process's cgroup up to the root of the hierarchy.
    private static func cgroupQuota(mount: String = "/sys/fs/cgroup") -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8),
            let path = cgroupPath(fromProcCgroup: text)
        else { return nil }
        // The kernel writes the cgroup path absolute and normalised: no `.` or `..` to resolve.
        var components = path.split(separator: "/").map(String.init)
        var tightest: Int?
        while true {
            let file = mount + (components.isEmpty ? "" : "/" + components.joined(separator: "/")) + "/cpu.max"
            if let line = try? String(contentsOfFile: file, encoding: .utf8), let cpus = cpus(fromCPUMax: line) {
                tightest = min(tightest ?? cpus, cpus)
            }
            guard !components.isEmpty else { break }
            components.removeLast()
        }
        return tightest
    }
}
