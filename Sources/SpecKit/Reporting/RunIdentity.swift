import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Names the test run a process belongs to, so the report merges exactly the
/// fragments of this run.
///
/// `swift test` starts the test binary as its child; under `--parallel` it
/// starts one child per test. All of them share that parent, so its pid and
/// start time identify the run without any coordination. Under Xcode the parent
/// is a long-lived system process shared by every run, so Xcode's own test
/// session identifier is used there, and a process with any other parent (the
/// binary run by hand) is a run of its own. CI can set `BDD_RUN_ID` instead.
enum RunIdentity {
    static let current: String = SpecSettings.runID.map(sanitize) ?? derived(environment: SpecSettings.environment)

    /// Parents whose children form one run: SwiftPM's test runners.
    static let swiftPMRunners: Set<String> = ["swift-test", "swift", "swift-package", "swift-build", "swiftpm-testing-helper"]

    /// Whether a kernel command name is one of `swiftPMRunners`. The kernel keeps only the first
    /// 15 (Linux `comm`) or 16 (Darwin `p_comm`, MAXCOMLEN) characters, so a longer name such as
    /// `swiftpm-testing-helper` arrives cut and is matched by that prefix.
    static func isSwiftPMRunner(_ commandName: String) -> Bool {
        if swiftPMRunners.contains(commandName) { return true }
        guard commandName.count >= 15 else { return false }
        return swiftPMRunners.contains { $0.count > commandName.count && $0.hasPrefix(commandName) }
    }

    static func derived(environment: [String: String]) -> String {
        if let session = environment["XCTestSessionIdentifier"], !session.isEmpty {
            return "xcode-" + sanitize(session)
        }
        let parent = getppid()
        if let name = processName(of: parent), isSwiftPMRunner(name) {
            return "ppid\(parent)" + (startTime(of: parent).map { "-\($0)" } ?? "")
        }
        let own = getpid()
        return "pid\(own)" + (startTime(of: own).map { "-\($0)" } ?? "")
    }

    /// The short command name of a process (`swift-test`), or `nil`.
    static func processName(of pid: pid_t) -> String? {
        #if os(Linux)
        guard let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8) else { return nil }
        return comm.trimmingCharacters(in: .whitespacesAndNewlines)
        #elseif canImport(Darwin)
        var info = kinfo_proc()
        var size = MemoryLayout<kinfo_proc>.stride
        var name: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, pid]
        guard sysctl(&name, u_int(name.count), &info, &size, nil, 0) == 0, size > 0 else { return nil }
        return withUnsafeBytes(of: info.kp_proc.p_comm) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        #else
        return nil
        #endif
    }

    static func sanitize(_ raw: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        let cleaned = String(raw.map { allowed.contains($0) ? $0 : "_" }.prefix(80))
        return cleaned.hasPrefix(".") ? "_" + cleaned.dropFirst() : cleaned
    }

    /// The process's start time in clock ticks since boot (Linux) or seconds
    /// since the epoch (Apple platforms); `nil` when unavailable.
    static func startTime(of pid: pid_t) -> String? {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name start at field 3; starttime is field 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? String(fields[19]) : nil
        #elseif canImport(Darwin)
        var info = kinfo_proc()
        var size = MemoryLayout<kinfo_proc>.stride
        var name: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, pid]
        guard sysctl(&name, u_int(name.count), &info, &size, nil, 0) == 0, size > 0 else { return nil }
        let started = info.kp_proc.p_un.__p_starttime
        return "\(started.tv_sec).\(started.tv_usec)"
        #else
        return nil
        #endif
    }
}
