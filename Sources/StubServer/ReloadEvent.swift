/// What happened when watched configuration files changed.
public enum ReloadEvent: Sendable, CustomStringConvertible {
    /// The new configuration is serving.
    case reloaded(changedFiles: [String])
    /// The new configuration is broken; the previous one keeps serving.
    case failed(changedFiles: [String], error: any Error)

    public var description: String {
        switch self {
        case .reloaded(let files):
            return "\(files.joined(separator: ", ")) changed; configuration reloaded"
        case .failed(let files, let error):
            return "\(files.joined(separator: ", ")) changed but the configuration is broken; still serving the last good one:\n\(error)"
        }
    }
}
