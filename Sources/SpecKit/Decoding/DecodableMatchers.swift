import Foundation
import SpecKitAppSupport

/// Passes when the JSON text decodes as `type`; otherwise the message names
/// the coding path: `expect(json).to(beDecodable(as: Story.self))`.
public func beDecodable<T: Decodable>(as type: T.Type, decoder: JSONDecoder = JSONDecoder()) -> Matcher<String> {
    decodableMatcher(type) { try decode(type, fromJSON: $0, decoder: decoder) }
}

/// Passes when the JSON data decodes as `type`; otherwise the message names the coding path.
public func beDecodable<T: Decodable>(as type: T.Type, decoder: JSONDecoder = JSONDecoder()) -> Matcher<Data> {
    decodableMatcher(type) { try decode(type, fromJSON: $0, decoder: decoder) }
}

private func decodableMatcher<Input, T>(_ type: T.Type, _ attempt: @escaping (Input) throws -> T) -> Matcher<Input> {
    Matcher { actual in
        let expectation = "be decodable as \(String(describing: type))"
        guard let input = try actual.evaluate() else {
            return MatchResult(status: .failsRegardless, expectation: expectation, actual: "<nil>")
        }
        do {
            let value = try attempt(input)
            return MatchResult(true, expectation: expectation, actual: describeValue(value))
        } catch {
            return MatchResult(false, expectation: expectation, actual: ErrorText.failureMessage(for: error))
        }
    }
}
