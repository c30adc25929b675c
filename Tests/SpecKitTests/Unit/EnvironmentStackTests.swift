import Foundation
import XCTest

private struct Environment: Sendable, Equatable {
    var language = "en"
    var apiBase = "https://api.example.com"
}

private struct Boom: Error {}

final class EnvironmentStackTests: XCTestCase {
    func testPushPopAndTheRootThatNeverPops() {
        let stack = EnvironmentStack(Environment())
        XCTAssertEqual(stack.current.language, "en")
        XCTAssertEqual(stack.depth, 1)
        stack.push(Environment(language: "de"))
        stack.push(modifying: { $0.apiBase = "http://127.0.0.1:9" })
        XCTAssertEqual(stack.current, Environment(language: "de", apiBase: "http://127.0.0.1:9"))
        XCTAssertEqual(stack.depth, 3)
        XCTAssertEqual(stack.pop(), Environment(language: "de", apiBase: "http://127.0.0.1:9"))
        XCTAssertEqual(stack.pop(), Environment(language: "de"))
        XCTAssertNil(stack.pop(), "the root is never popped")
        XCTAssertEqual(stack.current, Environment())
        XCTAssertEqual(stack.depth, 1)
    }

    func testReplaceCurrentChangesOnlyTheTop() {
        let stack = EnvironmentStack(Environment())
        stack.replaceCurrent(with: Environment(language: "fr"))
        XCTAssertEqual(stack.current.language, "fr", "with nothing pushed the root is replaced")
        stack.push(Environment(language: "ja"))
        stack.replaceCurrent(with: Environment(language: "ar"))
        XCTAssertEqual(stack.pop()?.language, "ar")
        XCTAssertEqual(stack.current.language, "fr")
    }

    func testWithEnvironmentRestoresThePreviousOneEvenWhenTheBodyThrows() {
        let stack = EnvironmentStack(Environment())
        let seen = stack.withEnvironment(Environment(language: "de")) { stack.current.language }
        XCTAssertEqual(seen, "de")
        XCTAssertEqual(stack.current.language, "en")

        XCTAssertThrowsError(
            try stack.withEnvironment(Environment(language: "es")) {
                XCTAssertEqual(stack.current.language, "es")
                throw Boom()
            })
        XCTAssertEqual(stack.current.language, "en")
        XCTAssertEqual(stack.depth, 1)
    }

    func testWithEnvironmentUndoesWhatTheBodyLeftBehind() {
        let stack = EnvironmentStack(Environment())
        stack.withEnvironment(modifying: { $0.language = "ja" }) {
            stack.push(Environment(language: "leaked"))
            stack.replaceCurrent(with: Environment(language: "also leaked"))
            XCTAssertEqual(stack.depth, 3)
        }
        XCTAssertEqual(stack.current, Environment())
        XCTAssertEqual(stack.depth, 1)
    }

    func testNestedScopes() {
        let stack = EnvironmentStack(Environment())
        stack.withEnvironment(Environment(language: "de")) {
            stack.withEnvironment(modifying: { $0.apiBase = "stub" }) {
                XCTAssertEqual(stack.current, Environment(language: "de", apiBase: "stub"))
            }
            XCTAssertEqual(stack.current, Environment(language: "de"))
        }
        XCTAssertEqual(stack.current, Environment())
    }

    func testAsyncWithEnvironmentRestoresAfterAwaitingAndThrowing() async {
        let stack = EnvironmentStack(Environment())
        let language = await stack.withEnvironment(Environment(language: "fr")) { () async -> String in
            try? await Task.sleep(nanoseconds: 1_000_000)
            return stack.current.language
        }
        XCTAssertEqual(language, "fr")
        do {
            try await stack.withEnvironment(modifying: { $0.language = "ar" }) { () async throws in
                try await Task.sleep(nanoseconds: 1_000_000)
                throw Boom()
            }
            XCTFail("expected the error to propagate")
        } catch {
            XCTAssertTrue(error is Boom)
        }
        XCTAssertEqual(stack.current, Environment())
    }

    func testConcurrentPushAndPopStayConsistent() {
        let stack = EnvironmentStack(Environment())
        DispatchQueue.concurrentPerform(iterations: 1_000) { index in
            stack.push(Environment(language: "l\(index)"))
            _ = stack.pop()
        }
        XCTAssertEqual(stack.depth, 1)
        XCTAssertEqual(stack.current, Environment())
    }
}
