import Foundation

/// The icon answered for `GET /favicon.ico` when no session matches it (moco answers with its
/// own PNG, so browsers pointed at a stub server stop logging misses). A session of yours that
/// matches `/favicon.ico` — a catch-all too — always wins.
enum Favicon {
    /// A 16×16 PNG: a teal tile with an "R", for Rehearsal.
    static let png: [UInt8] = Array(
        Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAOElEQVR42mNgoBpoaPhPEqZIM4Yh1DYAFyDZAFx8+hlAFS/g1EzXMMBpCCkGYBUfRCmR4sxEAQAAGgPG5G14Qe4AAAAASUVORK5CYII="
        )!)

    static let reference = StubReference(file: "(built-in favicon)", index: 0)

    static let prepared: PreparedResponse = {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "image/png")
        return PreparedResponse(HTTPResponse(status: 200, headers: headers, body: png))
    }()

    static func answers(method: String, path: String) -> Bool {
        (method == "GET" || method == "HEAD") && path == "/favicon.ico"
    }
}
