import Foundation
import XCTest

@testable import StubServer

/// A list index read from the request (`req.json.items[req.json.i]`) is client data: whatever
/// number arrives, the answer is a 400 naming the problem or the element, never a crash.
final class TemplateIndexSafetyTests: XCTestCase {
    private let config = #"[{"request": {"uri": "/pick"}, "response": {"text": {"template": "${req.json.items[req.json.i]}"}}}]"#

    /// The request from the issue: it used to end the process (`Int(1e300)` traps).
    func testHugeIndexOverHTTPIsA400WithTheReason() throws {
        let live = try LiveStubs(config)
        let response = try live.send(
            "POST", "/pick", headers: [("Content-Type", "application/json")], body: #"{"items":["a","b"],"i":1e300}"#)
        XCTAssertEqual(response.status, 400)
        XCTAssertTrue(response.text.contains("req.json.items[req.json.i]: the list index 1e+300 is out of range"), response.text)
        let after = try live.send("POST", "/pick", headers: [("Content-Type", "application/json")], body: #"{"items":["a","b"],"i":1}"#)
        XCTAssertEqual(after.status, 200)
        XCTAssertEqual(after.text, "b")
    }

    /// Random huge, negative, NaN-like and fractional indexes, as JSON numbers and through
    /// `vars` lists: each answer is the element, or a 400 — and the process is still here.
    func testRandomIndexesNeverTrap() throws {
        let router = try ConfigFixture().router(
            """
            [{"request": {"uri": "/pick"}, "response": {"text": {"template": "${req.json.items[req.json.i]}"}}},
             {"request": {"uri": "/vars"}, "response": {"text": {"template": {"with": "${names[req.json.i]}", "vars": {"names": {"header": "X-Name"}}}}}},
             {"request": {"uri": "/fallback"}, "response": {"text": {"template": "${req.json.items[req.json.i]!'none'}"}}}]
            """)
        let fixed = [
            "1e300", "-1e300", "1e308", "-1e308", "1e309", "-1e309", "1e999", "-0", "-0.0", "0.5", "-1",
            "9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551616",
            "4.9e-324", "1.7976931348623157e308", "2.5", "\"1\"", "\"NaN\"", "\"Infinity\"", "null", "true", "[1]", "{}",
        ]
        var random = RoutingSeededRandom(seed: 15)
        var indexes = fixed
        for _ in 0..<400 {
            switch random.next() % 6 {
            case 0: indexes.append(String(Double(bitPattern: random.next()))) // any double, NaN patterns become text
            case 1: indexes.append("\(Int64(bitPattern: random.next()))")
            case 2: indexes.append("\(Double.random(in: -1e18...1e18, using: &random))")
            case 3: indexes.append("1e\(Int.random(in: -400...400, using: &random))")
            case 4: indexes.append("-\(random.next())\(random.next())")
            default: indexes.append("\(Int.random(in: -3...3, using: &random)).\(random.next() % 1000)")
            }
        }
        let items = #"["a","b","c"]"#
        for index in indexes {
            let body = #"{"items": \#(items), "i": \#(index)}"#
            for target in ["/pick", "/vars", "/fallback"] {
                let answer = router.answer(
                    "POST", target, headers: [("Content-Type", "application/json"), ("X-Name", "a"), ("X-Name", "b")], body: body)
                let exact = Double(index).flatMap { $0.isFinite && $0 >= 0 && $0 == $0.rounded() ? Int(exactly: $0) : nil }
                if let exact, exact < (target == "/vars" ? 2 : 3) {
                    XCTAssertEqual(answer.status, 200, "\(target) i=\(index): \(answer.text)")
                } else if target == "/fallback" {
                    XCTAssertEqual(answer.status, 200, "\(target) i=\(index): \(answer.text)")
                    XCTAssertEqual(answer.text, "none", "\(target) i=\(index)")
                } else {
                    XCTAssertEqual(answer.status, 400, "\(target) i=\(index): \(answer.text)")
                }
            }
        }
    }
}
