/// One way an instance (a response body, a parameter value) breaks its schema: where in the
/// instance, which schema keyword, and what was expected.
///
/// ```swift
/// // $.stories[0].vote_count: expected an integer, got a string "118" (schema #/components/schemas/Story/properties/vote_count/type)
/// ```
public struct SchemaViolation: Sendable, Equatable, CustomStringConvertible {
    /// JSON path in the instance, `""` for the whole value, else `.stories[0].vote_count`.
    public var instancePath: String
    /// The keyword that failed, as a JSON pointer into the document (`#/components/schemas/Pet/required`).
    public var schemaLocation: String
    public var message: String

    public var description: String { "$\(instancePath): \(message) (schema \(schemaLocation))" }
}
