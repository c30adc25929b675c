// The scalar accessors beside `JSONValue.stringValue` and `arrayValue`, for code that reads
// answers it did not parse itself (the admin API's JSON in StubServerClient, the journal).
extension JSONValue {
    /// An integer number's value.
    public var intValue: Int? {
        if case .number(let number) = self { return number.intValue ?? Int(exactly: number.doubleValue) }
        return nil
    }

    public var doubleValue: Double? {
        if case .number(let number) = self { return number.doubleValue }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }
}
