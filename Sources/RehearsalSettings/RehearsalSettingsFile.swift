import Foundation

/// Reads `rehearsal.json`: an object whose keys are the friendly names (`record`, `tags`, …) or the
/// environment names (`TEXT_SNAPSHOT_RECORD`, …); values are strings, numbers or booleans.
package enum RehearsalSettingsFile {
    package struct Contents: Sendable, Equatable {
        /// Values by canonical (environment) name.
        package var values: [String: String]
        package var warnings: [String]
    }

    package struct Problem: Error, Sendable, Equatable {
        package var message: String
    }

    package static func read(path: String) -> Result<Contents, Problem> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(Problem(message: "\(path): cannot be read; its settings are ignored"))
        }
        return parse(data, path: path)
    }

    package static func parse(_ data: Data, path: String) -> Result<Contents, Problem> {
        let dictionary: [String: FileValue]
        do {
            dictionary = try JSONDecoder().decode([String: FileValue].self, from: data)
        } catch let DecodingError.typeMismatch(_, context) where context.codingPath.isEmpty {
            return .failure(Problem(message: "\(path): expected a JSON object at the top level; its settings are ignored"))
        } catch {
            return .failure(Problem(message: "\(path): not valid JSON (\(reason(error))); its settings are ignored"))
        }
        var byKey: [String: String] = [:]
        for setting in RehearsalSettings.known {
            byKey[setting.fileKey] = setting.name
            byKey[setting.name] = setting.name
        }
        var contents = Contents(values: [:], warnings: [])
        for key in dictionary.keys.sorted() {
            guard let name = byKey[key] else {
                let hint =
                    RehearsalSettings.known.map(\.fileKey).first { $0.lowercased() == key.lowercased() }
                    ?? closest(to: key, among: RehearsalSettings.known.map(\.fileKey))
                contents.warnings.append(
                    "\(path): unknown key \"\(key)\"" + (hint.map { "; did you mean \"\($0)\"?" } ?? "") + " (ignored)")
                continue
            }
            guard let value = dictionary[key]!.text else {
                contents.warnings.append("\(path): \"\(key)\" must be a string, a number or a boolean (ignored)")
                continue
            }
            contents.values[name] = value
        }
        return .success(contents)
    }

    /// A value in the file: strings as they are, booleans as `true`/`false`, numbers in their
    /// shortest form; anything else (arrays, objects, null) has no text.
    struct FileValue: Decodable {
        var text: String?

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                text = flag ? "true" : "false"
            } else if let whole = try? container.decode(Int64.self) {
                text = String(whole)
            } else if let number = try? container.decode(Double.self) {
                text = String(number)
            } else if let string = try? container.decode(String.self) {
                text = string
            } else {
                text = nil
            }
        }
    }

    static func reason(_ error: Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return underlying ?? context.debugDescription
        }
        return "\(error)"
    }

    static func closest(to key: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(key.lowercased(), $0.lowercased())) }.min { $0.1 < $1.1 }
        guard let (best, score) = scored, score <= max(2, best.count / 3) else { return nil }
        return best
    }

    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = row
        }
        return previous[b.count]
    }
}
