import Foundation

/// A request as failover, playback and tape files keep it: readable JSON, bodies as text
/// (or base64 when they are not UTF-8). Reads moco's saved exchanges too: fields moco leaves
/// out (`method`, `uri`, `content`…) match anything, and header or query values may be a
/// plain string instead of a list.
struct SavedRequest: Codable, Sendable, Equatable {
    var method: String?
    /// The path as sent (still percent-encoded), without the query. moco writes it decoded.
    var uri: String?
    var version: String?
    var queries: [String: [String]]?
    var headers: [String: [String]]?
    var content: String?
    var contentBase64: String?

    /// Fields that describe the connection or change per client run, never saved or compared
    /// (moco's files carry some of them; a saved `Host` is compared, as moco does).
    static let unsavedHeaders = [
        "Host", "Content-Length", "Date", "Connection", "Keep-Alive", "Proxy-Connection", "TE", "Transfer-Encoding", "Upgrade",
    ]

    /// `keepingHost`: the request as compared with saved ones, which may name a `Host`.
    init(_ request: HTTPRequest, keepingHost: Bool = false) {
        method = request.method.uppercased()
        uri = String(request.rawPath)
        version = request.version.description
        let pairs = request.rawQuery.map(PercentDecoding.decodePairs) ?? []
        if !pairs.isEmpty {
            var grouped: [String: [String]] = [:]
            for (name, value) in pairs { grouped[name, default: []].append(value) }
            queries = grouped
        }
        var grouped: [String: [String]] = [:]
        for field in request.headers
        where !Self.unsavedHeaders.contains(where: { HTTPHeaders.sameName($0, field.name) })
            || (keepingHost && HTTPHeaders.sameName(field.name, "Host"))
        {
            grouped[field.name, default: []].append(field.value)
        }
        headers = grouped.isEmpty ? nil : grouped
        (content, contentBase64) = SavedBody.encode(request.body)
        // An empty body is written out: a saved request without "content" matches any body.
        if content == nil && contentBase64 == nil { content = "" }
    }

    private enum CodingKeys: String, CodingKey {
        case method, uri, version, queries, headers, content, contentBase64
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        method = try container.decodeIfPresent(String.self, forKey: .method)
        uri = try container.decodeIfPresent(String.self, forKey: .uri)
        version = try container.decodeIfPresent(String.self, forKey: .version)
        queries = try container.decodeIfPresent(StringLists.self, forKey: .queries)?.lists
        headers = try container.decodeIfPresent(StringLists.self, forKey: .headers)?.lists
        content = try container.decodeIfPresent(String.self, forKey: .content)
        contentBase64 = try container.decodeIfPresent(String.self, forKey: .contentBase64)
    }

    var body: [UInt8] { SavedBody.decode(content, contentBase64) }

    /// The request rebuilt, for templates that read a recorded request.
    var request: HTTPRequest {
        var target = uri.flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        if let queries, !queries.isEmpty {
            let query = queries.keys.sorted().flatMap { name in queries[name]!.map { "\(Self.encode(name))=\(Self.encode($0))" } }
            target += "?" + query.joined(separator: "&")
        }
        var fields = HTTPHeaders()
        for name in (headers ?? [:]).keys.sorted() { for value in headers![name]! { fields.add(name: name, value: value) } }
        return HTTPRequest(
            method: method ?? "GET", target: target, version: version.flatMap { HTTPVersion($0) } ?? .http1_1, headers: fields, body: body)
    }

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+"))) ?? text
    }

    /// moco's rule (`HttpRequestFailoverMatcher`): what the saved request has must be equal in
    /// the incoming one — method, uri (as sent or decoded), version, body, each saved query,
    /// each saved header (names and values compared case-insensitively); what it leaves out
    /// matches anything. Connection headers moco saves (`Content-Length`, `Connection`…) are
    /// not compared. Unlike moco, a saved query or header the request lacks is a mismatch.
    func matches(_ other: SavedRequest) -> Bool {
        if let method, !method.isEmpty, method.uppercased() != other.method?.uppercased() { return false }
        if let uri, !uri.isEmpty, uri != other.uri, uri != other.uri.map({ PercentDecoding.decode($0, plusAsSpace: false) }) {
            return false
        }
        if let version, !version.isEmpty, version != other.version { return false }
        if content != nil || contentBase64 != nil, body != other.body { return false }
        let incomingQueries = other.queries ?? [:]
        for (name, values) in queries ?? [:] where incomingQueries[name] != values { return false }
        let incoming = other.headers ?? [:]
        for (name, values) in headers ?? [:] {
            if Self.unsavedHeaders.contains(where: { HTTPHeaders.sameName($0, name) }) && !HTTPHeaders.sameName(name, "Host") { continue }
            guard let match = incoming.first(where: { HTTPHeaders.sameName($0.key, name) }),
                match.value.map({ $0.lowercased() }) == values.map({ $0.lowercased() })
            else { return false }
        }
        return true
    }
}

/// A JSON object of names to a string or a list of strings (moco writes single values plain).
struct StringLists: Decodable {
    var lists: [String: [String]]

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode([String: OneOrMany].self)
        lists = raw.mapValues(\.values)
    }

    private struct OneOrMany: Decodable {
        var values: [String]
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) {
                values = [one]
            } else {
                values = try container.decode([String].self)
            }
        }
    }
}

/// A response as failover and playback files keep it.
struct SavedResponse: Codable, Sendable {
    var status: Int
    var headers: [String: [String]]?
    var content: String?
    var contentBase64: String?

    private enum CodingKeys: String, CodingKey {
        case status, headers, content, contentBase64
    }

    /// Ours, or moco's (`"status"` may be left out for 200, header values may be plain
    /// strings, its `version` is ignored).
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decodeIfPresent(Int.self, forKey: .status) ?? 200
        headers = try container.decodeIfPresent(StringLists.self, forKey: .headers)?.lists
        content = try container.decodeIfPresent(String.self, forKey: .content)
        contentBase64 = try container.decodeIfPresent(String.self, forKey: .contentBase64)
    }

    init(_ response: UpstreamResponse) {
        status = response.status
        var grouped: [String: [String]] = [:]
        for field in response.headers { grouped[field.name, default: []].append(field.value) }
        headers = grouped.isEmpty ? nil : grouped
        (content, contentBase64) = SavedBody.encode(response.body)
    }

    var upstreamResponse: UpstreamResponse {
        var fields = HTTPHeaders()
        for name in (headers ?? [:]).keys.sorted() { for value in headers![name]! { fields.add(name: name, value: value) } }
        return UpstreamResponse(status: status, headers: fields, body: SavedBody.decode(content, contentBase64))
    }
}

enum SavedBody {
    static func encode(_ bytes: [UInt8]) -> (String?, String?) {
        if bytes.isEmpty { return (nil, nil) }
        if let text = String(validating: bytes, as: UTF8.self) { return (text, nil) }
        return (nil, Data(bytes).base64EncodedString())
    }

    static func decode(_ text: String?, _ base64: String?) -> [UInt8] {
        if let text { return Array(text.utf8) }
        if let base64, let data = Data(base64Encoded: base64) { return [UInt8](data) }
        return []
    }
}

/// Writes a file so a reader (or a crash) only ever sees the old or the new content: a temporary
/// file in the same directory, flushed, then renamed over the target.
enum AtomicFileWriter {
    static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(
            ".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max)).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        if let handle = FileHandle(forWritingAtPath: temporary.path) {
            try? handle.synchronize()
            try? handle.close()
        }
        guard rename(temporary.path, path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(
                .fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: String(cString: strerror(code))])
        }
    }

    /// Removes the temporary files an earlier writer of `path` left when it was killed
    /// mid-write (`.<name>.<pid>.<random>.tmp` whose process no longer runs). A live process's
    /// file is kept: it may be writing it now.
    static func removeOrphans(of path: String) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let prefix = ".\(url.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let parts = name.dropFirst(prefix.count).dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, UInt32(parts[1]) != nil else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue } // still running (EPERM: someone else's)
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
