/// What JSON strings and YAML's double-quoted scalars read the same way: the one-letter escapes
/// JSON has (YAML has them all, and more) and hex digits. One decoder, so the two readers agree.
///
/// ```swift
/// StringEscapes.letter(UInt8(ascii: "n"))   // 0x0A
/// StringEscapes.hexDigit(UInt8(ascii: "F")) // 15
/// ```
package enum StringEscapes {
    /// The byte `\<letter>` stands for in JSON (`"`, `\`, `/`, `b`, `f`, `n`, `r`, `t`), or nil.
    package static func letter(_ letter: UInt8) -> UInt8? {
        switch letter {
        case UInt8(ascii: "\""): 0x22
        case UInt8(ascii: "\\"): 0x5C
        case UInt8(ascii: "/"): 0x2F
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    /// The value of a hex digit (`0`-`9`, `a`-`f`, `A`-`F`), or nil.
    package static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
