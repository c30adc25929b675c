import Foundation

/// One shard of a sharded run: `BDD_SHARD=2/4` runs the second quarter of the scenarios.
///
/// ```swift
/// let shard = try Shard(parsing: "2/4", setting: "BDD_SHARD")   // Shard(index: 2, count: 4)
/// let mine = Shard.assignments(of: ["Specs.LoginSpec/Short password", …], group: "Specs.LoginSpec", count: 4)
/// ```
///
/// How scenarios are split (the same answer on every machine and in every run, with no coordination
/// between shards): within each feature (a spec class, or a Swift Testing feature type), the
/// scenarios are ordered by the FNV-1a hash of their identity (`Module.Class/test name`) and dealt
/// round-robin, starting at the shard the FNV-1a hash of the feature's name picks. So every shard
/// gets ⌊m/n⌋ or ⌈m/n⌉ of each feature's m scenarios, and the remainders of different features land
/// on different shards. A whole-suite round-robin would be balanced exactly, but no process knows the
/// whole suite when it lists a feature's tests (Apple's XCTest registers classes lazily, Swift
/// Testing evaluates each feature's arguments on its own), so each feature is dealt alone: the suite
/// is balanced to within about one scenario per feature, usually much better.
/// Swift's `hashValue` is never used: it is seeded randomly per process.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1-based: `1...count`.
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) {
        precondition(count >= 1 && (1...count).contains(index), "shard \(index)/\(count)")
        self.index = index
        self.count = count
    }

    /// Parses `i/n`; `setting` names where the text came from, for the error (`BDD_SHARD`).
    public init(parsing text: String, setting: String) throws {
        let expected = "expected i/n, this process's shard i of n shards, whole numbers with 1 ≤ i ≤ n (e.g. \(setting)=2/4)"
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else {
            throw ShardError(message: "\(setting)=\(text) is not a shard: \(expected)")
        }
        guard count >= 1 else {
            throw ShardError(message: "\(setting)=\(text): there must be at least 1 shard; \(expected)")
        }
        guard index >= 1 else {
            throw ShardError(message: "\(setting)=\(text): shards count from 1; \(expected)")
        }
        guard index <= count else {
            throw ShardError(message: "\(setting)=\(text): there is no shard \(index) of \(count); \(expected)")
        }
        self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// Which shard (1-based) each of `identities` belongs to, for a feature named `group` split
    /// `count` ways. Depends only on the texts, never on their order or on the process.
    public static func assignments(of identities: [String], group: String, count: Int) -> [Int] {
        guard count > 1 else { return identities.map { _ in 1 } }
        let hashes = identities.map(fnv1a)
        let order = identities.indices.sorted { a, b in
            hashes[a] != hashes[b] ? hashes[a] < hashes[b] : identities[a] < identities[b]
        }
        let start = Int(fnv1a(group) % UInt64(count))
        var shards = Array(repeating: 1, count: identities.count)
        for (rank, position) in order.enumerated() {
            shards[position] = (start + rank) % count + 1
        }
        return shards
    }

    /// The items of `group` that belong to this shard, in their original order.
    public func select<Item>(_ items: [Item], group: String, identity: (Item) -> String) -> [Item] {
        let shards = Shard.assignments(of: items.map(identity), group: group, count: count)
        return zip(items, shards).filter { $0.1 == index }.map(\.0)
    }

    /// 64-bit FNV-1a over the UTF-8 bytes: stable across processes, machines and Swift versions.
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}

/// A `BDD_SHARD` value that is not `i/n` with `1 ≤ i ≤ n`.
public struct ShardError: Error, CustomStringConvertible, Equatable {
    public let message: String
    public var description: String { message }
}
