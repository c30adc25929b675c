// Durations: latency, delays, max ages (milliseconds or {"duration": …, "unit": …}).
extension StubDecoder {
    static let units: [String: Duration] = [
        "nanosecond": .nanoseconds(1), "microsecond": .microseconds(1), "millisecond": .milliseconds(1),
        "second": .seconds(1), "minute": .seconds(60), "hour": .seconds(3600), "day": .seconds(86_400),
    ]

    static let maximumDurationSeconds = StubDurationLimit.maximumSeconds
    static let maximumDurationDescription = StubDurationLimit.maximumDescription

    /// `amount` × `unitSeconds` as a Duration, or nil when it is longer than the maximum
    /// (checked in floating point first: `Duration * Double` traps when it overflows).
    static func boundedDuration(_ amount: Double, unitSeconds: Double) -> Duration? {
        let seconds = amount * unitSeconds
        guard seconds.isFinite, seconds >= 0, seconds <= maximumDurationSeconds else { return nil }
        let nanoseconds = (seconds * 1e9).rounded()
        return .nanoseconds(Int64(nanoseconds))
    }

    /// Milliseconds (`500`, `"500"`) or `{"duration": 1, "unit": "second"}`.
    mutating func duration(_ node: JSONNode, at path: String) -> Duration? {
        func milliseconds(_ text: String) -> Duration? {
            guard let value = Double(text), value.isFinite, value >= 0 else { return nil }
            return Self.boundedDuration(value, unitSeconds: 0.001)
        }
        func tooLarge(_ text: String) {
            report(path, "\(text) milliseconds is too long; a duration is at most \(Self.maximumDurationDescription)", at: node.offset)
        }
        switch node.kind {
        case .number(let number):
            if let value = milliseconds(number.text) { return value }
            if let value = Double(number.text), value >= 0 { tooLarge(number.text); return nil }
            report(path, "expected a non-negative number of milliseconds, got \(number.text)", at: node.offset)
            return nil
        case .string(let text):
            let trimmed = text.trimmingASCIIWhitespace()
            if let value = milliseconds(trimmed) { return value }
            if let value = Double(trimmed), value >= 0 { tooLarge(trimmed); return nil }
            expected("a number of milliseconds or {\"duration\": …, \"unit\": …}", at: path, got: node)
            return nil
        case .object:
            guard let fields = members(node, at: path, allowed: ["duration", "unit"]) else { return nil }
            guard let amountNode = fields["duration"], let unitNode = fields["unit"] else {
                report(path, "expected {\"duration\": 1, \"unit\": \"second\"}", at: node.offset)
                return nil
            }
            var amount: Double?
            switch amountNode.kind {
            case .number(let number): amount = number.doubleValue
            case .string(let text): amount = Double(text.trimmingASCIIWhitespace())
            default: break
            }
            guard let amount, amount >= 0, !amount.isNaN else {
                expected("a non-negative number", at: path + ".duration", got: amountNode)
                return nil
            }
            guard let unitText = string(unitNode, at: path + ".unit") else { return nil }
            var key = unitText.lowercased()
            if key.hasSuffix("s") { key.removeLast() }
            guard let unit = Self.units[key] else {
                let names = ["nanosecond", "microsecond", "millisecond", "second", "minute", "hour", "day"]
                report(
                    path + ".unit",
                    "unknown unit \(quoted(unitText))\(Suggestion.didYouMean(key, among: names)); units: \(names.joined(separator: ", "))",
                    at: unitNode.offset)
                return nil
            }
            let unitSeconds = Double(unit.components.seconds) + Double(unit.components.attoseconds) / 1e18
            guard let bounded = Self.boundedDuration(amount, unitSeconds: unitSeconds) else {
                report(
                    path + ".duration",
                    "\(amountNode.value.scalarText) \(unitText) is too long; a duration is at most \(Self.maximumDurationDescription)",
                    at: amountNode.offset)
                return nil
            }
            return bounded
        default:
            expected("a number of milliseconds or {\"duration\": …, \"unit\": …}", at: path, got: node)
            return nil
        }
    }
}
