/// The derived views of one request that matchers and templates read (decoded path, queries,
/// cookies, forms, body text, JSON). Each is computed on first use and then reused, so a
/// request routed to a stub that only checks the path never parses its body.
/// One instance per request, confined to the thread that routes it.
final class RequestView {
    let request: HTTPRequest

    init(_ request: HTTPRequest) {
        self.request = request
    }

    /// The percent-decoded path (no query string); `+` stays `+`. A target with nothing to
    /// cut or decode (most) is the path itself, without a copy.
    private(set) lazy var path: String = {
        let target = request.target
        if !target.utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "%") }) {
            return target
        }
        return PercentDecoding.decode(rawPath, plusAsSpace: false)
    }()

    /// The target up to `?` or `#`, found by scanning bytes (not Characters: this is the hot path).
    private var rawPath: Substring {
        let target = request.target
        let utf8 = target.utf8
        if let mark = utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            return target[..<mark]
        }
        return target[...]
    }

    /// The method in upper case (configs compare methods case-insensitively, as moco does).
    private(set) lazy var method: String = Self.asciiUppercased(request.method)

    private(set) lazy var queries = FieldList(rawQuery.map(PercentDecoding.decodePairs) ?? [])

    /// The query string without `?` (and without a `#fragment`), or nil.
    private var rawQuery: Substring? {
        let target = request.target
        let utf8 = target.utf8
        guard let mark = utf8.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        let start = utf8.index(after: mark)
        let end = utf8[start...].firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
        return target[start..<end]
    }

    private(set) lazy var cookies = FieldList(CookieParsing.cookies(request.headers))

    private(set) lazy var forms = FieldList(FormDecoding.fields(body: request.body, contentType: request.headers["Content-Type"]))

    /// The body decoded as text: UTF-8 unless the content type names ISO-8859-1/Latin-1.
    private(set) lazy var bodyText: String = {
        if let contentType = request.headers["Content-Type"]?.lowercased(),
            contentType.contains("charset=iso-8859-1") || contentType.contains("charset=latin1")
        {
            return String(request.body.map { Character(Unicode.Scalar($0)) })
        }
        return String(decoding: request.body, as: UTF8.self)
    }()

    /// The body parsed as JSON; nil when it is not JSON (that is "no match", never an error).
    private(set) lazy var json: Result<JSONValue, JSONSyntaxError> = {
        do throws(JSONSyntaxError) {
            return .success(try JSONParser.parse(request.body).value)
        } catch {
            return .failure(error)
        }
    }()

    var jsonValue: JSONValue? {
        if case .success(let value) = json { return value }
        return nil
    }

    /// XML views are built by the XML support on demand and cached here.
    var xmlCache: AnyObject?

    static func asciiUppercased(_ text: String) -> String {
        if !text.utf8.contains(where: { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) { return text }
        // Written in place: a short result (every method) stays a small string, no allocation.
        return String(unsafeUninitializedCapacity: text.utf8.count) { buffer in
            for (index, byte) in text.utf8.enumerated() {
                buffer[index] = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
            }
            return text.utf8.count
        }
    }
}

/// Name/value pairs in request order (queries, cookies, form fields). Requests carry few of
/// them, so a scan beats building a dictionary.
struct FieldList {
    let pairs: [(String, String)]

    init(_ pairs: [(String, String)]) {
        self.pairs = pairs
    }

    /// Every value of `name` in order, or nil when there is none.
    subscript(name: String) -> [String]? {
        var values: [String]?
        for (key, value) in pairs where key == name {
            if values == nil { values = [value] } else { values!.append(value) }
        }
        return values
    }
}
