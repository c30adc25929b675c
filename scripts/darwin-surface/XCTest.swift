// Apple's XCTest as Swift sees it (Xcode 16 SDK: XCTest.framework headers XCTest.h, XCTestCase.h,
// XCTestSuite.h, XCTestRun.h, XCTestObservation.h, XCTestObservationCenter.h, XCTIssue.h,
// XCTSourceCodeContext.h, XCTestExpectation.h, XCTWaiter.h, and the Swift overlay's XCTSkip,
// XCTIssue, XCTAssert* and XCTFail; developer.apple.com/documentation/xctest). Only what our code
// uses, with Apple's Swift names and types. This module shadows Linux's swift-corelibs-xctest during
// the check, so an API that exists only there (init(name:testClosure:), XCTMain) fails here.
@_exported import Foundation
@_exported import ObjectiveC

// XCTest.h: the abstract base of XCTestCase and XCTestSuite.
open class XCTest: NSObject {
    open var testCaseCount: Int { 0 }
    open var name: String { "" }
    open var testRunClass: AnyClass? { nil }
    open var testRun: XCTestRun? { nil }
    open func perform(_ run: XCTestRun) {}
    open func run() {}
    open func setUpWithError() throws {}
    open func setUp() {}
    open func tearDown() {}
    open func tearDownWithError() throws {}
    public override init() {}

    // NSObject (NSObject.h), declared here because Linux Foundation's NSObject has no selectors:
    // `+ (BOOL)instancesRespondToSelector:(SEL)aSelector;` imported as below.
    open class func instancesRespond(to aSelector: Selector!) -> Bool { false }
    // `+ (BOOL)resolveInstanceMethod:(SEL)sel API_AVAILABLE(macos(10.5), ios(2.0));` — the runtime's
    // dynamic method resolution hook (developer.apple.com/documentation/objectivec/nsobject/resolveinstancemethod(_:)).
    open class func resolveInstanceMethod(_ sel: Selector!) -> Bool { false }
    open func responds(to aSelector: Selector!) -> Bool { false }
}

// XCTestCase.h
open class XCTestCase: XCTest {
    // `- (instancetype)initWithSelector:(SEL)selector;` — not `required` in Objective-C, but Swift
    // lets code call an initializer imported from Objective-C on a metatype (`type.init(selector:)`)
    // without it. A Swift declaration cannot say that, so the check models it as `required`.
    public required init(selector: Selector) {}
    @available(*, unavailable, message: "Linux XCTest only (swift-corelibs-xctest)")
    public init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {}
    // `@property (class, readonly) XCTestSuite *defaultTestSuite;`
    open class var defaultTestSuite: XCTestSuite { XCTestSuite(name: "") }
    // `+ (void)setUp; + (void)tearDown;` — once per class around its tests.
    open class func setUp() {}
    open class func tearDown() {}
    open func invokeTest() {}
    open var continueAfterFailure: Bool = true
    open var executionTimeAllowance: TimeInterval = 0
    // XCTestCase.h (Xcode 12): `- (void)recordIssue:(XCTIssue *)issue NS_SWIFT_NAME(record(_:));`
    open func record(_ issue: XCTIssue) {}
    // Deprecated since Xcode 12 ("Use -recordIssue: instead.") but still declared.
    @available(*, deprecated, message: "Use -recordIssue: instead.")
    open func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {}
    open func addTeardownBlock(_ block: @escaping () -> Void) {}
    open func addTeardownBlock(_ block: @escaping @Sendable @MainActor () async throws -> Void) {}
    open func expectation(description: String) -> XCTestExpectation { XCTestExpectation(description: description) }
    open func wait(for expectations: [XCTestExpectation], timeout seconds: TimeInterval) {}
}

// XCTestSuite.h
open class XCTestSuite: XCTest {
    public init(name: String) {}
    open func addTest(_ test: XCTest) {}
    open var tests: [XCTest] { [] }
}

// XCTestRun.h
open class XCTestRun: NSObject {
    public init(test: XCTest) {}
    open var test: XCTest { fatalError() }
    open var startDate: Date? { nil }
    open var stopDate: Date? { nil }
    open var totalDuration: TimeInterval { 0 }
    open var testDuration: TimeInterval { 0 }
    open var testCaseCount: Int { 0 }
    open var executionCount: Int { 0 }
    open var skipCount: Int { 0 }
    open var failureCount: Int { 0 }
    open var unexpectedExceptionCount: Int { 0 }
    open var totalFailureCount: Int { 0 }
    open var hasSucceeded: Bool { false }
    open var hasBeenSkipped: Bool { false }
}

// XCTestObservation.h: an @objc protocol whose methods are all optional; modelled with default
// implementations (the check cannot see a misspelt optional method, which Apple's compiler warns about).
public protocol XCTestObservation: NSObjectProtocol {
    func testBundleWillStart(_ testBundle: Bundle)
    func testBundleDidFinish(_ testBundle: Bundle)
    func testSuiteWillStart(_ testSuite: XCTestSuite)
    func testSuite(_ testSuite: XCTestSuite, didRecord issue: XCTIssue)
    func testSuiteDidFinish(_ testSuite: XCTestSuite)
    func testCaseWillStart(_ testCase: XCTestCase)
    func testCase(_ testCase: XCTestCase, didRecord issue: XCTIssue)
    func testCaseDidFinish(_ testCase: XCTestCase)
}
extension XCTestObservation {
    public func testBundleWillStart(_ testBundle: Bundle) {}
    public func testBundleDidFinish(_ testBundle: Bundle) {}
    public func testSuiteWillStart(_ testSuite: XCTestSuite) {}
    public func testSuite(_ testSuite: XCTestSuite, didRecord issue: XCTIssue) {}
    public func testSuiteDidFinish(_ testSuite: XCTestSuite) {}
    public func testCaseWillStart(_ testCase: XCTestCase) {}
    public func testCase(_ testCase: XCTestCase, didRecord issue: XCTIssue) {}
    public func testCaseDidFinish(_ testCase: XCTestCase) {}
}

// XCTestObservationCenter.h: "Test observers can only be registered and unregistered on the main thread."
open class XCTestObservationCenter: NSObject {
    open class var shared: XCTestObservationCenter { XCTestObservationCenter() }
    open func addTestObserver(_ testObserver: XCTestObservation) {}
    open func removeTestObserver(_ testObserver: XCTestObservation) {}
}

// XCTSourceCodeContext.h
open class XCTSourceCodeLocation: NSObject {
    public init(fileURL: URL, lineNumber: Int) {}
    public convenience init(filePath: String, lineNumber: Int) { self.init(fileURL: URL(fileURLWithPath: filePath), lineNumber: lineNumber) }
    open var fileURL: URL { URL(fileURLWithPath: "/") }
    open var lineNumber: Int { 0 }
}
open class XCTSourceCodeContext: NSObject {
    public init(callStackAddresses: [NSNumber], location: XCTSourceCodeLocation?) {}
    public convenience init(location: XCTSourceCodeLocation?) { self.init(callStackAddresses: [], location: location) }
    public override convenience init() { self.init(callStackAddresses: [], location: nil) }
    open var location: XCTSourceCodeLocation? { nil }
}

// XCTIssue (Swift overlay: `public struct XCTIssue` over XCTIssueReference).
public struct XCTIssue: CustomStringConvertible {
    public enum IssueType: Int, Sendable {
        case assertionFailure = 0, performanceRegression = 3, system = 4, thrownError = 1,
             uncaughtException = 2, unmatchedExpectedFailure = 5
    }
    public init(type: IssueType, compactDescription: String, detailedDescription: String? = nil,
                sourceCodeContext: XCTSourceCodeContext = XCTSourceCodeContext(),
                associatedError: Error? = nil, attachments: [XCTAttachment] = []) {
        self.type = type
        self.compactDescription = compactDescription
        self.detailedDescription = detailedDescription
        self.sourceCodeContext = sourceCodeContext
        self.associatedError = associatedError
        self.attachments = attachments
    }
    public var type: IssueType
    public var compactDescription: String
    public var detailedDescription: String?
    public var sourceCodeContext: XCTSourceCodeContext
    public var associatedError: Error?
    public var attachments: [XCTAttachment]
    public var isExpected: Bool { false }
    public var description: String { compactDescription }
}
open class XCTAttachment: NSObject {
    public init(string: String) {}
}

// The overlay's XCTSkip (XCTSkip.swift): `public struct XCTSkip: Error, CustomNSError`.
public struct XCTSkip: Error, CustomNSError {
    public init(_ message: @autoclosure () -> String? = nil, file: StaticString = #filePath, line: UInt = #line) {}
    public var message: String? { nil }
    public var summary: String { "" }
    public var sourceLocation: XCTSourceCodeLocation? { nil }
    public static var errorDomain: String { "com.apple.xctest.skip" }
    public var errorCode: Int { 0 }
    public var errorUserInfo: [String: Any] { [:] }
}

// XCTestExpectation.h, XCTWaiter.h
open class XCTestExpectation: NSObject {
    public init(description expectationDescription: String) {}
    open func fulfill() {}
    open var isInverted: Bool = false
    open var expectedFulfillmentCount: Int = 1
    open var assertForOverFulfill: Bool = true
}
open class XCTWaiter: NSObject {
    public enum Result: Int, Sendable { case completed = 1, timedOut, incorrectOrder, invertedFulfillment, interrupted }
    public override init() {}
    @discardableResult
    open func wait(for expectations: [XCTestExpectation], timeout seconds: TimeInterval) -> XCTWaiter.Result { .completed }
    @discardableResult
    open func wait(for expectations: [XCTestExpectation], timeout seconds: TimeInterval, enforceOrder: Bool) -> XCTWaiter.Result { .completed }
    @discardableResult
    open class func wait(for expectations: [XCTestExpectation], timeout seconds: TimeInterval) -> XCTWaiter.Result { .completed }
}

// The overlay's assertions (XCTestAssertions.swift).
public func XCTFail(_ message: String = "", file: StaticString = #filePath, line: UInt = #line) {}
public func XCTAssert(_ expression: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line) {}
public func XCTAssertTrue(_ expression: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line) {}
public func XCTAssertFalse(_ expression: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line) {}
public func XCTAssertEqual<T: Equatable>(_ expression1: @autoclosure () throws -> T, _ expression2: @autoclosure () throws -> T, _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line) {}
public func XCTAssertNil(_ expression: @autoclosure () throws -> Any?, _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line) {}
public func XCTAssertNotNil(_ expression: @autoclosure () throws -> Any?, _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line) {}
public func XCTUnwrap<T>(_ expression: @autoclosure () throws -> T?, _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line) throws -> T { fatalError() }
