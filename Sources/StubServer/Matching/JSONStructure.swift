/// moco's `struct: {json: …}`: the body has the shape of an example, whatever its values.
enum JSONStructure {
    /// Every key of `shape` exists in `value` with the same JSON kind (extra keys are fine);
    /// every element of an array has the shape of the example's first element (an empty
    /// example array accepts any array); `null` in the example accepts anything.
    static func matches(_ value: JSONValue, shape: JSONValue) -> Bool {
        switch (shape, value) {
        case (.null, _): return true
        case (.bool, .bool), (.number, .number), (.string, .string): return true
        case (.array(let example), .array(let elements)):
            guard let first = example.first else { return true }
            return elements.allSatisfy { matches($0, shape: first) }
        case (.object(let example), .object(let object)):
            for member in example.members {
                guard let actual = object[member.key], matches(actual, shape: member.value) else { return false }
            }
            return true
        default:
            return false
        }
    }
}
