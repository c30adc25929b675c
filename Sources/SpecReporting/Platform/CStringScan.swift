#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's byte scan, which stays fast in debug builds where a Swift loop over a
/// 10,000-scenario report does not: the escapers ask it first and leave plain text untouched.
enum CStringScan {
    /// True when `text` holds a NUL or any byte of `specials` (a NUL-terminated byte set).
    static func contains(anyOf specials: [CChar], in text: String) -> Bool {
        text.withCString { pointer in
            // An embedded NUL ends the C string early.
            strlen(pointer) != text.utf8.count
                || specials.withUnsafeBufferPointer { strpbrk(pointer, $0.baseAddress!) } != nil
        }
    }
}
