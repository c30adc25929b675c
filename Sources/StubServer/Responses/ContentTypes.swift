/// Default content types, as moco sets them.
enum ContentTypes {
    static let text = "text/plain; charset=utf-8"
    static let json = "application/json; charset=utf-8"

    /// moco's table (Guava media types) plus a few common web types moco leaves to the default.
    static let byExtension: [String: String] = [
        "png": "image/png", "gif": "image/gif", "jpg": "image/jpeg", "jpeg": "image/jpeg", "tiff": "image/tiff",
        "css": "text/css", "html": "text/html", "txt": "text/plain", "js": "application/javascript",
        "json": "application/json", "pdf": "application/pdf", "zip": "application/zip", "tar": "application/x-tar",
        "gz": "application/x-gzip", "xml": "text/xml",
        // Not in moco's table (which would answer text/plain; charset=utf-8):
        "htm": "text/html", "svg": "image/svg+xml", "webp": "image/webp", "ico": "image/x-icon", "csv": "text/csv",
        "mp4": "video/mp4", "mp3": "audio/mpeg", "woff2": "font/woff2",
    ]

    /// The content type of a file by its extension; unknown extensions are UTF-8 text. A
    /// `charset` is appended (lower-cased) when given, as moco does (`text/plain; charset=gbk`).
    static func forFile(named name: String, charset: String?) -> String {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        var type = text
        if let dot = base.lastIndex(of: "."), dot != base.startIndex {
            let ext = base[base.index(after: dot)...].lowercased()
            if let known = byExtension[ext] { type = known }
        }
        guard let charset, !charset.isEmpty else { return type }
        let bare = type.split(separator: ";").first.map(String.init) ?? type
        return "\(bare); charset=\(charset.lowercased())"
    }
}
