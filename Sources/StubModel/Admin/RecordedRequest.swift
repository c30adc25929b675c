import Foundation

/// A journal entry as the admin API sends it (and `StubServerClient` reads it back); the
/// embedded `StubServer` returns the same type from `requests()` and `findRequests(matching:)`.
public struct RecordedRequest: Sendable, Equatable {
    public struct Header: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Position in the server's history, from 1.
    public var sequence: Int
    public var method: String
    /// The percent-decoded path.
    public var uri: String
    /// The raw query string without `?`, or nil.
    public var query: String?
    public var headers: [Header]
    /// The body as UTF-8 text (invalid bytes replaced), cut at the journal's limit.
    public var body: String
    public var bodySize: Int
    public var bodyTruncated: Bool
    /// The id of the stub that answered (`Stubs/login_conf.json#0`, `admin-3`), or nil.
    public var stub: String?
    /// `file#index`, `admin`, or nil when nothing answered.
    public var source: String?
    /// When nothing matched: the closest stubs (at most three), closest first, each with the
    /// conditions it failed.
    public var nearMisses: [NearMiss]
    /// When nothing matched: the closest stub's id and each condition it failed.
    public var nearMiss: NearMiss? { nearMisses.first }
    public var status: Int
    public var time: Date
    public var durationMilliseconds: Double
    /// Why the engine refused the request, if it did.
    public var rejection: String?

    public struct NearMiss: Sendable, Equatable {
        public var stub: String
        public var differences: [String]
        public init(stub: String, differences: [String]) {
            self.stub = stub
            self.differences = differences
        }
    }

    /// Every field as the server fills it (the server builds one from its journal entry).
    package init(
        sequence: Int, method: String, uri: String, query: String?, headers: [Header], body: String, bodySize: Int,
        bodyTruncated: Bool, stub: String?, source: String?, nearMisses: [NearMiss], status: Int, time: Date,
        durationMilliseconds: Double, rejection: String?
    ) {
        self.sequence = sequence
        self.method = method
        self.uri = uri
        self.query = query
        self.headers = headers
        self.body = body
        self.bodySize = bodySize
        self.bodyTruncated = bodyTruncated
        self.stub = stub
        self.source = source
        self.nearMisses = nearMisses
        self.status = status
        self.time = time
        self.durationMilliseconds = durationMilliseconds
        self.rejection = rejection
    }

    /// `GET /api/v1/stories?client_id=x 200 Stubs/stories_conf.json#0 1.2ms`, as the log prints it.
    public var summary: String {
        let target = query.map { "\(uri)?\($0)" } ?? uri
        let answeredBy =
            stub ?? rejection.map { "refused: \($0)" }
            ?? nearMiss.map {
                "no match (closest: \($0.stub)\($0.differences.isEmpty ? "" : ", " + $0.differences.joined(separator: "; ")))"
            }
            ?? "no match"
        return "\(method) \(target) \(status) \(answeredBy) \(String(format: "%.1f", durationMilliseconds))ms"
    }

    // MARK: JSON

    public var json: JSONValue {
        var object: JSONObject = [
            "sequence": .number(JSONNumber(sequence)), "method": .string(method), "uri": .string(uri),
        ]
        object.set("query", query.map(JSONValue.string) ?? .null)
        object.set("headers", .array(headers.map { ["name": .string($0.name), "value": .string($0.value)] }))
        object.set("body", .string(body))
        object.set("bodySize", .number(JSONNumber(bodySize)))
        object.set("bodyTruncated", .bool(bodyTruncated))
        object.set("stub", stub.map(JSONValue.string) ?? .null)
        object.set("source", source.map(JSONValue.string) ?? .null)
        func missJSON(_ miss: NearMiss) -> JSONValue {
            ["stub": .string(miss.stub), "differences": .array(miss.differences.map(JSONValue.string))]
        }
        object.set("nearMiss", nearMiss.map(missJSON) ?? .null)
        object.set("nearMisses", .array(nearMisses.map(missJSON)))
        object.set("status", .number(JSONNumber(status)))
        object.set("time", .string(Self.timeFormat(time)))
        object.set("durationMs", .number(JSONNumber(durationMilliseconds)))
        if let rejection { object.set("rejection", .string(rejection)) }
        return .object(object)
    }

    /// Reads what `json` wrote; nil when a required field is missing.
    public init?(json: JSONValue) {
        guard let sequence = json["sequence"]?.intValue, let method = json["method"]?.stringValue,
            let uri = json["uri"]?.stringValue, let status = json["status"]?.intValue
        else { return nil }
        self.sequence = sequence
        self.method = method
        self.uri = uri
        query = json["query"]?.stringValue
        headers = (json["headers"]?.arrayValue ?? []).compactMap { item in
            guard let name = item["name"]?.stringValue, let value = item["value"]?.stringValue else { return nil }
            return Header(name: name, value: value)
        }
        body = json["body"]?.stringValue ?? ""
        bodySize = json["bodySize"]?.intValue ?? body.utf8.count
        bodyTruncated = json["bodyTruncated"]?.boolValue ?? false
        stub = json["stub"]?.stringValue
        source = json["source"]?.stringValue
        func miss(_ value: JSONValue) -> NearMiss? {
            guard let stub = value["stub"]?.stringValue else { return nil }
            return NearMiss(stub: stub, differences: (value["differences"]?.arrayValue ?? []).compactMap(\.stringValue))
        }
        // A server from before the list sent only `nearMiss`.
        nearMisses = json["nearMisses"]?.arrayValue?.compactMap(miss) ?? json["nearMiss"].flatMap(miss).map { [$0] } ?? []
        self.status = status
        time = json["time"]?.stringValue.flatMap(Self.parseTime) ?? Date(timeIntervalSince1970: 0)
        durationMilliseconds = json["durationMs"]?.doubleValue ?? 0
        rejection = json["rejection"]?.stringValue
    }

    package static func timeFormat(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    static func parseTime(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
