/// JSON paths the way diagnostics print them (`[0].request.headers.X-Token`, `.queries["a b"]`,
/// `.tags[0]`): the notation ``JSONNode/offset(atPath:)`` reads back to place a problem. The
/// configuration decoder and the OpenAPI reader both write it.
///
/// ```swift
/// JSONPathText.key("headers") + JSONPathText.key("a b") + JSONPathText.index(0)   // .headers["a b"][0]
/// ```
package enum JSONPathText {
    /// `.name` for a plain key, the key as a JSON string in brackets for any other. Plain means
    /// ASCII letters, digits, `_` and `-`, and letters and digits of any script unless `asciiOnly`.
    package static func key(_ key: String, asciiOnly: Bool = false) -> String {
        let plain =
            !key.isEmpty
            && (isPlainASCII(key) || (!asciiOnly && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }))
        if plain { return "." + key }
        var out = ""
        JSONWriter.writeString(key, into: &out)
        return "[" + out + "]"
    }

    package static func index(_ index: Int) -> String { "[\(index)]" }

    /// ASCII letters, digits, `_` and `-` only: plain without asking Unicode properties.
    private static func isPlainASCII(_ key: String) -> Bool {
        key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }
}
