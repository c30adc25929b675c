import Foundation

/// Decodes JSON text, failing with the coding path of the problem.
///
/// ```swift
/// let story = try decode(Story.self, fromJSON: #"{"id": 1, "title": "Launch"}"#)
/// ```
/// Inside a step a failure reads `[Given …] could not decode Story: type mismatch (Int) at id: …`.
public func decode<T: Decodable>(_ type: T.Type, fromJSON json: String, decoder: JSONDecoder = JSONDecoder()) throws -> T {
    try decode(type, fromJSON: Data(json.utf8), decoder: decoder)
}

/// Decodes JSON data, failing with the coding path of the problem.
public func decode<T: Decodable>(_ type: T.Type, fromJSON data: Data, decoder: JSONDecoder = JSONDecoder()) throws -> T {
    try decode(type, data: data, source: nil, decoder: decoder)
}

/// Decodes a JSON file (a stub body, say); the failure names the file.
///
/// ```swift
/// let page = try decode(StoriesPage.self, fromFile: "Stubs/stories.json")
/// ```
public func decode<T: Decodable>(_ type: T.Type, fromFile path: String, decoder: JSONDecoder = JSONDecoder()) throws -> T {
    try decode(type, fromFile: URL(fileURLWithPath: path), decoder: decoder)
}

/// Decodes a JSON file at `url`; the failure names the file.
public func decode<T: Decodable>(_ type: T.Type, fromFile url: URL, decoder: JSONDecoder = JSONDecoder()) throws -> T {
    let shown = DisplayPath.relativeToCurrentDirectory(url.path)
    let data: Data
    do {
        data = try Data(contentsOf: url)
    } catch {
        let reason = (error as NSError).localizedDescription
        throw DecodingFailure(
            typeName: String(describing: type), source: shown, reason: .unreadable, codingPath: "", detail: reason)
    }
    return try decode(type, data: data, source: shown, decoder: decoder)
}

private func decode<T: Decodable>(_ type: T.Type, data: Data, source: String?, decoder: JSONDecoder) throws -> T {
    do {
        return try decoder.decode(type, from: data)
    } catch {
        let failure = DecodingFailure(error, decoding: type, source: source)
        // Foundation on Linux gives no position for malformed JSON; our parser does.
        if failure.reason == .dataCorrupted, failure.codingPath.isEmpty {
            do {
                _ = try StrictJSON.Parser.parse(data)
            } catch {
                throw DecodingFailure(
                    typeName: failure.typeName, source: source, reason: .dataCorrupted, codingPath: "",
                    detail: error.description)
            }
        }
        throw failure
    }
}
