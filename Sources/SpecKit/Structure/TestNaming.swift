/// Turns scenario titles into XCTest test names that every runner can select:
/// readable, unique within the class, and short enough that
/// `swift test --filter` stays under the argument-length cap. Characters that
/// break a runner are replaced:
/// - `,` → `;` (corelibs splits a selector list on commas),
/// - `/` and `\\` → `-` (`/` separates class from test),
/// - `.` → `·` (corelibs lists `Class.name` split on dots, so `a@b.co` would
///   turn into two components; a `--filter` regex `.` still matches `·`),
/// - `:` → `-` (an Objective-C selector with a colon expects arguments).
enum TestNaming {
    static let maxLength = 99

    /// Replaces the characters above; runs of whitespace (newlines included) → one space.
    static func sanitize(_ text: String) -> String {
        var result = ""
        var pendingSpace = false
        for character in text {
            if character.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace {
                result.append(" ")
                pendingSpace = false
            }
            switch character {
            case ",": result.append(";")
            case "/", "\\", ":": result.append("-")
            case ".": result.append("·")
            default: result.append(character)
            }
        }
        return result
    }

    /// Assigns `testName` to every scenario, in declaration order, so that names
    /// do not depend on `BDD_TAGS` or on which tests are selected.
    static func assignNames(to scenarios: [ScenarioDefinition], reserved: Set<String> = []) {
        let featureCount = Set(scenarios.map { ObjectIdentifier($0.group.feature) }).count
        var used = reserved
        for scenario in scenarios {
            var parts = featureCount > 1 ? [scenario.group.feature.title] : []
            parts += scenario.contextPath
            parts.append(scenario.title)
            var base = parts.map(sanitize).filter { !$0.isEmpty }.joined(separator: " - ")
            if base.isEmpty { base = "scenario \(scenario.ordinal + 1)" }
            let tagSuffix = scenario.tags.map { "@" + sanitize($0) }.joined(separator: " ")

            var name = compose(base: base, counter: nil, tags: tagSuffix)
            var counter = 2
            while used.contains(name) {
                name = compose(base: base, counter: counter, tags: tagSuffix)
                counter += 1
            }
            used.insert(name)
            scenario.testName = name
        }
    }

    static func compose(base: String, counter: Int?, tags: String) -> String {
        let counterText = counter.map { " (\($0))" } ?? ""
        let tail = counterText + (tags.isEmpty ? "" : " " + tags)
        if base.count + tail.count <= maxLength {
            return base + tail
        }
        let room = maxLength - tail.count - 1
        if room >= 12 {
            return String(base.prefix(room)).trimmingTrailingSpaces() + "…" + tail
        }
        // Tags alone nearly fill the budget: keep the title's start and the counter.
        let whole = base + counterText + (tags.isEmpty ? "" : " " + tags)
        let keepCounter = counterText.count
        let head = String(whole.prefix(maxLength - 1 - keepCounter)).trimmingTrailingSpaces()
        return head + "…" + counterText
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
