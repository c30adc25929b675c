/// Where a stub came from, printed as `file#index` in log lines and near-miss reports.
public struct StubReference: Sendable, Hashable, CustomStringConvertible {
    /// The config file's name as the user wrote it (e.g. `Stubs/login_conf.json`), or `stubs` for
    /// stubs built in Swift.
    public var file: String
    /// Zero-based position of the session in that file.
    public var index: Int

    public init(file: String, index: Int) {
        self.file = file
        self.index = index
    }

    /// Stubs added through the admin API (`admin-3`).
    public static func added(_ number: Int) -> StubReference { StubReference(file: addedFile, index: number) }
    package static let addedFile = "admin"

    /// True for stubs added at run time (admin API, `StubServer.addStubs`).
    public var isAdded: Bool { file == Self.addedFile }

    /// `Stubs/login_conf.json#0`; `admin-3` for an added stub. Also the stub's id in the admin API.
    public var description: String { isAdded ? "admin-\(index)" : "\(file)#\(index)" }
}
