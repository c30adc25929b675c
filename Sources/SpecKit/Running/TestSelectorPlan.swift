/// The Objective-C method names under which Apple's XCTest runs a spec's scenarios, and the way
/// back from any name XCTest or a tool hands over to the scenario. Pure Swift, compiled on every
/// platform, so Linux CI checks the rules the Apple path relies on (`TestSelectorPlanTests`); the
/// Objective-C registration (`ObjCRuntimeRegistration.swift`) only applies the plan.
///
/// A scenario named `The button starts disabled @smoke` becomes the method `test_The_button_starts_disabled_smoke`,
/// added as the throwing method `test_The_button_starts_disabled_smokeAndReturnError:` (the shape Swift
/// gives `func test…() throws`, so a skip reaches XCTest). Such a method is indistinguishable from one
/// declared in source, so every XCTest path that finds a throwing `test…` method finds it:
/// - XCTest lists only methods whose name begins with `test` (the default `testInvocations`);
/// - SwiftPM on macOS lists tests by splitting `-[Class method]` on space, `[`, `]` and `:`
///   (swiftpm-xctest-helper), then runs `xctest -XCTest Class/method,Class/method`;
/// - `-only-testing:` and Xcode identifiers are `Bundle/Class/method`.
/// So a method name holds only identifier characters (C11 Annex D), never a space, comma, slash,
/// bracket or colon; it is unique within the class (declaration order decides counters, never the
/// tags or filters of a run), and depends on nothing but the scenario names, so it is the same on
/// every run and machine. The readable scenario name stays in reports, JUnit and snapshots.
struct TestSelectorPlan {
    static let prefix = "test_"
    /// Swift's Objective-C name for a throwing method without arguments: `nameAndReturnError:`.
    static let throwingSuffix = "AndReturnError:"

    /// XCTest's name of each scenario's method (`test_…`), in the order of the names given.
    let methodNames: [String]
    private let indexByMethod: [String: Int]

    /// `testNames` are all of a class's scenario names in declaration order (not only the selected
    /// ones, so a filter never renames a scenario); `reserved` are the method names the class
    /// already has, which a scenario never takes.
    init(testNames: [String], reserved: Set<String> = []) {
        var used = reserved
        var names: [String] = []
        var indexByMethod: [String: Int] = [:]
        for (index, testName) in testNames.enumerated() {
            var base = Self.prefix + Self.identifier(for: testName)
            // XCTest and SwiftPM strip `AndReturnError` from a throwing method's name: never end in it.
            if base.hasSuffix("AndReturnError") { base += "_" }
            var name = base
            var counter = 2
            while used.contains(name) {
                name = base + "_\(counter)"
                counter += 1
            }
            used.insert(name)
            names.append(name)
            indexByMethod[name] = index
        }
        methodNames = names
        self.indexByMethod = indexByMethod
    }

    /// The scenario a name from XCTest or a tool stands for: `-[Module.Class test_x]`, `test_x`,
    /// the selector `test_xAndReturnError:`, or `test_x()` (Xcode writes Swift methods so).
    func index(ofTestNamed name: String) -> Int? {
        var method = RuntimeTestName.method(of: name)
        if method.hasSuffix("()") { method.removeLast(2) }
        return indexByMethod[method]
    }

    /// `testName` as identifier characters: every run of other characters (spaces, punctuation,
    /// `@` of tags, `…`) becomes one `_`, none at either end.
    static func identifier(for testName: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSeparator = false
        for scalar in testName.unicodeScalars {
            guard scalar != "_", isIdentifierScalar(scalar) else {
                pendingSeparator = true
                continue
            }
            if pendingSeparator && !result.isEmpty { result.append("_") }
            pendingSeparator = false
            result.append(scalar)
        }
        return result.isEmpty ? "scenario" : String(result)
    }

    /// Why `method` would not be found or listed by XCTest and SwiftPM on Apple platforms; empty when fine.
    static func violations(of method: String) -> [String] {
        var problems: [String] = []
        if !method.hasPrefix("test") { problems.append("does not begin with \"test\" (XCTest lists only such methods)") }
        if method == "testFeature" { problems.append("is SpecKit's anchor method") }
        if method.hasSuffix("AndReturnError") { problems.append("ends in \"AndReturnError\" (XCTest strips it from names)") }
        for (character, why) in [
            (" ", "SwiftPM on macOS splits test names on spaces"),
            ("[", "SwiftPM splits on brackets"), ("]", "SwiftPM splits on brackets"),
            (":", "a selector with a colon takes arguments"),
            (",", "xctest -XCTest separates tests with commas"),
            ("/", "a test identifier separates class and method with a slash"),
        ]
        where method.contains(character) {
            problems.append("contains \"\(character)\" (\(why))")
        }
        if let bad = method.unicodeScalars.first(where: { $0 != "_" && !isIdentifierScalar($0) }) {
            problems.append("contains U+\(String(bad.value, radix: 16, uppercase: true)), not an identifier character")
        }
        return problems
    }

    /// ASCII letters, digits and `_`, and the non-ASCII characters C11 allows in identifiers
    /// (ISO/IEC 9899:2011 Annex D.1, the table clang applies to Objective-C), less those that
    /// print as nothing (soft hyphen, zero-width and bidirectional controls, variation selectors,
    /// fillers, tags). A fixed table, not the Unicode version of the machine, so names are stable.
    static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        switch value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F: return true
        case 0..<0x80: return false
        default:
            return c11Allowed.contains { $0.contains(value) } && !invisible.contains { $0.contains(value) }
        }
    }

    private static let c11Allowed: [ClosedRange<UInt32>] = [
        0xA8...0xA8, 0xAA...0xAA, 0xAD...0xAD, 0xAF...0xAF, 0xB2...0xB5, 0xB7...0xBA, 0xBC...0xBE,
        0xC0...0xD6, 0xD8...0xF6, 0xF8...0xFF,
        0x100...0x167F, 0x1681...0x180D, 0x180F...0x1FFF,
        0x200B...0x200D, 0x202A...0x202E, 0x203F...0x2040, 0x2054...0x2054, 0x2060...0x206F,
        0x2070...0x218F, 0x2460...0x24FF, 0x2776...0x2793, 0x2C00...0x2DFF, 0x2E80...0x2FFF,
        0x3004...0x3007, 0x3021...0x302F, 0x3031...0x303F,
        0x3040...0xD7FF,
        0xF900...0xFD3D, 0xFD40...0xFDCF, 0xFDF0...0xFE44, 0xFE47...0xFFFD,
        0x10000...0x1FFFD, 0x20000...0x2FFFD, 0x30000...0x3FFFD, 0x40000...0x4FFFD, 0x50000...0x5FFFD,
        0x60000...0x6FFFD, 0x70000...0x7FFFD, 0x80000...0x8FFFD, 0x90000...0x9FFFD, 0xA0000...0xAFFFD,
        0xB0000...0xBFFFD, 0xC0000...0xCFFFD, 0xD0000...0xDFFFD, 0xE0000...0xEFFFD,
    ]

    private static let invisible: [ClosedRange<UInt32>] = [
        0xAD...0xAD, 0x115F...0x1160, 0x180B...0x180D, 0x200B...0x200D, 0x202A...0x202E,
        0x2060...0x206F, 0x3164...0x3164, 0xFE00...0xFE0F, 0xFEFF...0xFEFF, 0xFFA0...0xFFA0,
        0xE0000...0xEFFFD,
    ]
}

/// The method part of XCTest's names on Apple platforms: tests are named `-[Module.Class method]`,
/// and a throwing method's selector is `methodAndReturnError:`.
enum RuntimeTestName {
    static func method(of testName: String) -> String {
        guard testName.hasPrefix("-["), testName.hasSuffix("]"), let space = testName.firstIndex(of: " ") else {
            return method(ofSelector: testName)
        }
        return method(ofSelector: String(testName[testName.index(after: space)..<testName.index(before: testName.endIndex)]))
    }

    /// `name` for `nameAndReturnError:` (a throwing test method), else the selector itself.
    static func method(ofSelector selector: String) -> String {
        selector.hasSuffix(TestSelectorPlan.throwingSuffix)
            ? String(selector.dropLast(TestSelectorPlan.throwingSuffix.count)) : selector
    }

    /// The selector of the throwing method XCTest names `method`.
    static func selectorName(forMethod method: String) -> String {
        method + TestSelectorPlan.throwingSuffix
    }
}
