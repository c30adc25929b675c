import Foundation

/// How the Designer News API writes JSON: snake_case keys (spelled out in each model's
/// `CodingKeys`, so a decoding error names the key as the JSON has it, `stories[2].vote_count`)
/// and ISO-8601 dates, with or without fractional seconds.
///
/// ```swift
/// let page = try DesignerNewsJSON.decoder().decode(StoriesPage.self, from: data)
/// ```
public enum DesignerNewsJSON {
    /// A decoder for API responses and stub files.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseDate(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "Expected an ISO-8601 date such as 2023-11-15T09:12:44Z, found \"\(text)\".")
            }
            return date
        }
        return decoder
    }

    /// An encoder writing what ``decoder()`` reads (sorted keys, for stable output).
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatDate(date))
        }
        return encoder
    }

    /// `2023-11-15T09:12:44Z` or `2023-11-15T09:12:44.250+01:00` → a date; anything else → nil.
    public static func parseDate(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// A date as the API writes it: `2023-11-15T09:12:44Z` (UTC).
    public static func formatDate(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }
}
