import Foundation

extension Snapshotting where Value: Encodable {
    /// Pretty-printed JSON with sorted keys, unescaped slashes and ISO 8601 dates: stable across runs.
    ///
    /// ```swift
    /// assertSnapshot(of: user, as: .json)   // __Snapshots__/UserTests/testUser.1.json
    /// ```
    public static var json: Snapshotting<Value> {
        json(encoder: defaultJSONEncoder())
    }

    /// JSON written by your own encoder (sorted keys are still forced on, for stability).
    public static func json(encoder: JSONEncoder) -> Snapshotting<Value> {
        Snapshotting(pathExtension: "json") { value in
            encoder.outputFormatting.insert(.sortedKeys)
            let data = try encoder.encode(value)
            return String(decoding: data, as: UTF8.self)
        }
    }

    static func defaultJSONEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}
