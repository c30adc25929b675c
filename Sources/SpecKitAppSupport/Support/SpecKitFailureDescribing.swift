/// An error whose description already reads as a test failure, so a step that
/// throws it shows the text as is (`[Given …] could not decode Story: …`).
///
/// ```swift
/// struct MissingFixture: SpecKitFailureDescribing {
///     var name: String
///     var failureDescription: String { "no fixture named \(name) in Stubs/" }
/// }
/// ```
public protocol SpecKitFailureDescribing: Error {
    var failureDescription: String { get }
}
