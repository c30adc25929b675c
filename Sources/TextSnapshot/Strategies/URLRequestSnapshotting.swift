import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Snapshotting where Value == URLRequest {
    /// The request as a `curl` command you can paste into a shell: method, headers sorted by name,
    /// cookies, body, and the URL with its query items sorted (swift-snapshot-testing's `.curl`,
    /// quoted for POSIX shells).
    ///
    /// ```swift
    /// assertSnapshot(of: try client.loginRequest(email: "a@b.co", password: "pw"), as: .curl)
    /// // curl \
    /// //   --request POST \
    /// //   --header 'Content-Type: application/x-www-form-urlencoded' \
    /// //   --data 'email=a%40b.co&password=pw' \
    /// //   'https://api.example.com/oauth/token'
    /// ```
    public static var curl: Snapshotting<URLRequest> {
        Snapshotting(pathExtension: "txt") { request in RequestText.curl(request) }
    }

    /// The request as raw HTTP-ish text: `METHOD URL`, headers sorted by name, a blank line and the
    /// body (swift-snapshot-testing's `.raw`). Non-UTF-8 bodies show their size and a hex preview.
    public static var raw: Snapshotting<URLRequest> { .raw(pretty: false) }

    /// `.raw`, with a JSON body pretty-printed with sorted keys when `pretty` is true.
    public static func raw(pretty: Bool) -> Snapshotting<URLRequest> {
        Snapshotting(pathExtension: "txt") { request in RequestText.raw(request, pretty: pretty) }
    }
}

/// Text forms of a `URLRequest` that do not depend on dictionary order or the host.
enum RequestText {
    static func curl(_ request: URLRequest) -> String {
        var parts = ["curl"]
        let method = request.httpMethod ?? "GET"
        switch method {
        case "GET": break
        case "HEAD": parts.append("--head")
        default: parts.append("--request \(method)")
        }
        let headers = request.allHTTPHeaderFields ?? [:]
        for name in headers.keys.sorted() where name.lowercased() != "cookie" {
            parts.append("--header " + shellQuoted("\(name): \(headers[name]!)"))
        }
        if let cookie = headers.first(where: { $0.key.lowercased() == "cookie" })?.value {
            parts.append("--cookie " + shellQuoted(cookie))
        }
        if let body = request.httpBody, !body.isEmpty {
            if let text = String(data: body, encoding: .utf8) {
                parts.append("--data " + shellQuoted(text))
            } else {
                parts.append("--data-binary @- # \(body.count) bytes, not UTF-8: \(hexPreview(body))")
            }
        }
        parts.append(shellQuoted(sortedURL(request.url)))
        return parts.joined(separator: " \\\n  ")
    }

    static func raw(_ request: URLRequest, pretty: Bool) -> String {
        var lines = ["\(request.httpMethod ?? "GET") \(sortedURL(request.url))"]
        let headers = request.allHTTPHeaderFields ?? [:]
        for name in headers.keys.sorted() {
            lines.append("\(name): \(headers[name]!)")
        }
        if let body = request.httpBody, !body.isEmpty {
            lines.append("")
            lines.append(bodyText(body, pretty: pretty))
        }
        return lines.joined(separator: "\n")
    }

    static func bodyText(_ body: Data, pretty: Bool) -> String {
        if pretty, let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        {
            return String(decoding: data, as: UTF8.self)
        }
        if let text = String(data: body, encoding: .utf8) { return text }
        return "(\(body.count) bytes, not UTF-8: \(hexPreview(body)))"
    }

    /// The URL with its query items sorted by name (then value), so snapshots do not depend on the
    /// order a dictionary happened to produce them in.
    static func sortedURL(_ url: URL?) -> String {
        guard let url else { return "(no URL)" }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let items = components.percentEncodedQueryItems, items.count > 1
        else { return url.absoluteString }
        components.percentEncodedQueryItems = items.sorted { ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "") }
        return components.url?.absoluteString ?? url.absoluteString
    }

    /// `'text'`, with `'` written as `'\''`: safe to paste into any POSIX shell.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    static func hexPreview(_ data: Data) -> String {
        data.prefix(32).map { String(format: "%02x", $0) }.joined() + (data.count > 32 ? "…" : "")
    }
}
