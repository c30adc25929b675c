/// Form fields from a request body: `application/x-www-form-urlencoded`, or
/// `multipart/form-data` (file parts are skipped, as in moco).
enum FormDecoding {
    static func fields(body: [UInt8], contentType: String?) -> [(String, String)] {
        if let contentType, let boundary = multipartBoundary(contentType) {
            return multipartFields(body: body, boundary: boundary)
        }
        guard !body.isEmpty else { return [] }
        return PercentDecoding.decodePairs(String(decoding: body, as: UTF8.self)[...])
    }

    /// The boundary parameter of a `multipart/form-data` content type, or nil.
    static func multipartBoundary(_ contentType: String) -> String? {
        let parts = contentType.split(separator: ";").map { $0.trimmingASCIIWhitespace() }
        guard let type = parts.first, type.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parts.dropFirst() {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            let name = parameter[..<equals].trimmingASCIIWhitespace().lowercased()
            guard name == "boundary" else { continue }
            var value = parameter[parameter.index(after: equals)...].trimmingASCIIWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    static func multipartFields(body: [UInt8], boundary: String) -> [(String, String)] {
        let delimiter = Array("--\(boundary)".utf8)
        var fields: [(String, String)] = []
        // The first delimiter may sit at offset 0 (no preamble) or after a CRLF.
        guard var cursor = find(delimiter, in: body, from: 0) else { return [] }
        cursor += delimiter.count
        while cursor + 1 < body.count {
            // `--` after a delimiter closes the body.
            if body[cursor] == UInt8(ascii: "-") && body[cursor + 1] == UInt8(ascii: "-") { break }
            // Skip transport padding and the CRLF ending the delimiter line.
            guard let lineEnd = find([13, 10], in: body, from: cursor) else { break }
            let partStart = lineEnd + 2
            guard let next = find([13, 10] + delimiter, in: body, from: partStart) else { break }
            let part = body[partStart..<next]
            if let field = formField(part) { fields.append(field) }
            cursor = next + 2 + delimiter.count
        }
        return fields
    }

    /// Name and value of one part, or nil for file parts and parts without a name.
    private static func formField(_ part: ArraySlice<UInt8>) -> (String, String)? {
        let bytes = Array(part)
        let headerEnd: Int
        let contentStart: Int
        if bytes.starts(with: [13, 10]) {
            headerEnd = 0
            contentStart = 2
        } else if let end = find([13, 10, 13, 10], in: bytes, from: 0) {
            headerEnd = end
            contentStart = end + 4
        } else {
            return nil
        }
        let headerText = String(decoding: bytes[0..<headerEnd], as: UTF8.self)
        var name: String?
        for line in headerText.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            guard line[..<colon].trimmingASCIIWhitespace().lowercased() == "content-disposition" else { continue }
            let parameters = parseParameters(line[line.index(after: colon)...])
            if parameters["filename"] != nil || parameters["filename*"] != nil { return nil }
            name = parameters["name"]
        }
        guard let name else { return nil }
        return (name, String(decoding: bytes[contentStart...], as: UTF8.self))
    }

    /// `form-data; name="a"; filename="b"` → ["name": "a", "filename": "b"] (names lower-cased).
    static func parseParameters(_ text: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var index = text.startIndex
        // Skip the disposition type.
        while index < text.endIndex, text[index] != ";" { index = text.index(after: index) }
        while index < text.endIndex {
            index = text.index(after: index) // past ';'
            while index < text.endIndex, text[index] == " " || text[index] == "\t" { index = text.index(after: index) }
            let nameStart = index
            while index < text.endIndex, text[index] != "=", text[index] != ";" { index = text.index(after: index) }
            let name = text[nameStart..<index].trimmingASCIIWhitespace().lowercased()
            guard index < text.endIndex, text[index] == "=" else { continue }
            index = text.index(after: index)
            var value = ""
            if index < text.endIndex, text[index] == "\"" {
                index = text.index(after: index)
                while index < text.endIndex, text[index] != "\"" {
                    if text[index] == "\\", text.index(after: index) < text.endIndex { index = text.index(after: index) }
                    value.append(text[index])
                    index = text.index(after: index)
                }
                if index < text.endIndex { index = text.index(after: index) }
                while index < text.endIndex, text[index] != ";" { index = text.index(after: index) }
            } else {
                let valueStart = index
                while index < text.endIndex, text[index] != ";" { index = text.index(after: index) }
                value = text[valueStart..<index].trimmingASCIIWhitespace()
            }
            if !name.isEmpty { result[name] = value }
        }
        return result
    }

    /// First offset of `needle` in `haystack` at or after `start`.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        let first = needle[0]
        let last = haystack.count - needle.count
        var index = start
        while index <= last {
            if haystack[index] == first {
                var offset = 1
                while offset < needle.count, haystack[index + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return index }
            }
            index += 1
        }
        return nil
    }
}

/// Cookies from `Cookie` request headers: `a=1; b="2"` → [("a", "1"), ("b", "2")].
enum CookieParsing {
    static func cookies(_ headers: HTTPHeaders) -> [(String, String)] {
        var result: [(String, String)] = []
        for header in headers.values(for: "Cookie") {
            for piece in header.split(separator: ";") {
                let pair = piece.trimmingASCIIWhitespace()
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let name = pair[..<equals].trimmingASCIIWhitespace()
                guard !name.isEmpty else { continue }
                var value = pair[pair.index(after: equals)...].trimmingASCIIWhitespace()
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
                result.append((name, value))
            }
        }
        return result
    }
}

extension String {
    /// Without leading and trailing spaces, tabs, CR and LF.
    func trimmingASCIIWhitespace() -> String {
        // Most values have nothing to trim: a whitespace character starts and ends with a
        // whitespace byte, so checking the two end bytes settles it without grapheme breaking
        // or a copy.
        func isSpaceByte(_ byte: UInt8?) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
        }
        if !isSpaceByte(utf8.first) && !isSpaceByte(utf8.last) { return self }
        return self[...].trimmingASCIIWhitespace()
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs, CR and LF.
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = lastIndex(where: { !isSpace($0) })!
        return String(self[first...last])
    }
}
