/// A way to turn a value into snapshot text: a file extension, a ``Diffing`` and the snapshot closure.
/// Derive new strategies from existing ones with ``pullback(_:)``.
///
/// ```swift
/// struct Receipt { var lines: [String] }
/// extension Snapshotting where Value == Receipt {
///     static let receipt = Snapshotting<String>.lines.pullback { (receipt: Receipt) in receipt.lines.joined(separator: "\n") }
/// }
/// assertSnapshot(of: receipt, as: .receipt)
/// ```
public struct Snapshotting<Value> {
    /// The snapshot file's extension (`txt`, `json`).
    public var pathExtension: String
    /// How references and actual texts are compared.
    public var diffing: Diffing
    /// Makes the snapshot text. Line ends are normalised to LF and exactly one final newline when stored.
    public var snapshot: (Value) throws -> String

    public init(pathExtension: String = "txt", diffing: Diffing = .lines, snapshot: @escaping (Value) throws -> String) {
        self.pathExtension = pathExtension
        self.diffing = diffing
        self.snapshot = snapshot
    }

    /// A strategy for `New` values that converts them to `Value` first.
    public func pullback<New>(_ transform: @escaping (New) throws -> Value) -> Snapshotting<New> {
        let snapshot = self.snapshot
        return Snapshotting<New>(pathExtension: pathExtension, diffing: diffing) { try snapshot(transform($0)) }
    }
}

extension Snapshotting where Value == String {
    /// The string itself, compared line by line.
    public static var lines: Snapshotting<String> { Snapshotting(pathExtension: "txt") { $0 } }
}

extension Snapshotting {
    /// `String(describing:)` of the value.
    public static var description: Snapshotting<Value> {
        Snapshotting<String>.lines.pullback { String(describing: $0) }
    }

    /// A deterministic structural dump (see ``DeterministicDump``): dictionaries and sets sorted,
    /// no memory addresses, dates as ISO 8601 in UTC, the same on every run.
    public static var dump: Snapshotting<Value> {
        Snapshotting<String>.lines.pullback { DeterministicDump.dump($0) }
    }
}
