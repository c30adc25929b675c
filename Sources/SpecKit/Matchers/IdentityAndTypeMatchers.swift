/// Passes when the value is the very same object as `expected` (`===`):
/// `expect(environment.api).to(beIdenticalTo(fixtureAPI))`.
public func beIdenticalTo<T>(_ expected: AnyObject?) -> Matcher<T> {
    Matcher { actual in
        let value = try actual.evaluate()
        let object = value.flatMap { ReferenceIdentity.object($0) }
        let matches = object.map { object in expected.map { $0 === object } ?? false } ?? (value == nil && expected == nil)
        let got = object.map { ReferenceIdentity.describe($0) } ?? describeValue(value)
        return MatchResult(matches, expectation: "be identical to \(ReferenceIdentity.describe(expected))", actual: got)
    }
}

/// Nimble's short name of ``beIdenticalTo(_:)``.
public func be<T>(_ expected: AnyObject?) -> Matcher<T> {
    beIdenticalTo(expected)
}

/// Passes when the value is an instance of `type` or of a subclass (or conforms, for a protocol):
/// `expect(error).to(beAKindOf(DecodingError.self))`.
public func beAKindOf<T, Expected>(_ type: Expected.Type) -> Matcher<T> {
    .requiringValue("be a kind of \(ValueDump.name(of: type))") { value in
        (value is Expected, "<\(ValueDump.name(of: Swift.type(of: value as Any))) instance>")
    }
}

/// Passes when the value's dynamic type is exactly `type` (a subclass does not count):
/// `expect(screen).to(beAnInstanceOf(LoginScreen.self))`.
public func beAnInstanceOf<T, Expected>(_ type: Expected.Type) -> Matcher<T> {
    .requiringValue("be an instance of \(ValueDump.name(of: type))") { value in
        let dynamicType = Swift.type(of: value as Any)
        return (ObjectIdentifier(dynamicType) == ObjectIdentifier(type), "<\(ValueDump.name(of: dynamicType)) instance>")
    }
}

enum ReferenceIdentity {
    /// The object behind a value, when it is one (class instances only; structs never are).
    static func object(_ value: Any) -> AnyObject? {
        Mirror(reflecting: value).displayStyle == .class ? value as AnyObject : nil
    }

    /// `<Session instance #3a1f…>`: the type and a short object identity, stable within a run.
    static func describe(_ object: AnyObject?) -> String {
        guard let object else { return "<nil>" }
        let id = UInt(bitPattern: ObjectIdentifier(object).hashValue)
        let short = String(id, radix: 16).suffix(6)
        return "<\(ValueDump.name(of: type(of: object))) instance #\(short)>"
    }
}
