import Foundation
import XCTest

private struct Page: Decodable, Equatable {
    var stories: [Story]
}

private struct Story: Decodable, Equatable {
    enum State: String, Decodable { case live, archived }
    var id: Int
    var title: String
    var state: State?
    var publishedAt: Date?
}

/// `decode(_:fromJSON:)` / `decode(_:fromFile:)` name the coding path of every failure.
final class DecodingTests: XCTestCase {
    private let page = #"{"stories": [{"id": 1, "title": "A"}, {"id": 2, "title": "B"}, {"id": 3, "title": "C"}]}"#

    private func failure(_ json: String, decoder: JSONDecoder = JSONDecoder()) -> String {
        do {
            _ = try decode(Page.self, fromJSON: json, decoder: decoder)
            return "decoded"
        } catch {
            return "\(error)"
        }
    }

    func testDecodesValidJSONFromTextAndData() throws {
        let decoded = try decode(Page.self, fromJSON: page)
        XCTAssertEqual(decoded.stories.map(\.title), ["A", "B", "C"])
        XCTAssertEqual(try decode(Page.self, fromJSON: Data(page.utf8)), decoded)
    }

    func testTypeMismatchNamesTheCodingPath() {
        XCTAssertEqual(
            failure(#"{"stories": [{"id": 1, "title": "A"}, {"id": 2, "title": "B"}, {"id": "3", "title": "C"}]}"#),
            "could not decode Page: type mismatch (Int) at stories[2].id: Expected to decode Int but found a string instead.")
    }

    func testMissingKeyNamesWhereItWasExpected() {
        XCTAssertEqual(
            failure(#"{"stories": [{"id": 1, "title": "A"}, {"id": 2}]}"#),
            "could not decode Page: key not found at stories[1].title")
        XCTAssertEqual(failure("{}"), "could not decode Page: key not found at stories")
    }

    func testNullForARequiredValue() {
        // The decoder's own wording after the path differs between platforms.
        let text = failure(#"{"stories": [{"id": 1, "title": null}]}"#)
        XCTAssertTrue(text.hasPrefix("could not decode Page: value not found (String) at stories[0].title: "), text)
        XCTAssertTrue(text.contains("null"), text)
    }

    func testCorruptedValueGivesTheUnderlyingReason() {
        XCTAssertEqual(
            failure(#"{"stories": [{"id": 1, "title": "A", "state": "cancelled"}]}"#),
            "could not decode Page: data corrupted at stories[0].state: Cannot initialize State from invalid String value cancelled")
    }

    func testInvalidJSONSaysWhereAndWhy() {
        XCTAssertEqual(
            failure("{\"stories\": [}"),
            "could not decode Page: data corrupted at the top level: "
                + "invalid JSON at line 1, column 14 (byte 13): expected a value, got '}'")
    }

    func testCustomDecoderForDates() throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let json = #"{"stories": [{"id": 1, "title": "A", "publishedAt": "2024-05-01T10:00:00Z"}]}"#
        let decoded = try decode(Page.self, fromJSON: json, decoder: decoder)
        XCTAssertEqual(decoded.stories[0].publishedAt, Date(timeIntervalSince1970: 1_714_557_600))
        XCTAssertTrue(failure(json).hasPrefix("could not decode Page: type mismatch (Double) at stories[0].publishedAt"), failure(json))
    }

    func testDecodeFromFileNamesTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("speckit-decode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("stories.json")
        try Data(page.utf8).write(to: good)
        XCTAssertEqual(try decode(Page.self, fromFile: good).stories.count, 3)
        XCTAssertEqual(try decode(Page.self, fromFile: good.path).stories.count, 3)

        let bad = folder.appendingPathComponent("bad.json")
        try Data(#"{"stories": [{"id": "x", "title": "A"}]}"#.utf8).write(to: bad)
        XCTAssertThrowsError(try decode(Page.self, fromFile: bad)) { error in
            XCTAssertEqual(
                "\(error)",
                "could not decode Page from \(bad.path): type mismatch (Int) at stories[0].id: Expected to decode Int but found a string instead."
            )
            XCTAssertEqual((error as? DecodingFailure)?.codingPath, "stories[0].id")
            XCTAssertEqual((error as? DecodingFailure)?.reason, .typeMismatch(expected: "Int"))
        }

        let missing = folder.appendingPathComponent("missing.json")
        XCTAssertThrowsError(try decode(Page.self, fromFile: missing)) { error in
            XCTAssertTrue("\(error)".hasPrefix("could not decode Page from \(missing.path): cannot read the file: "), "\(error)")
            XCTAssertEqual((error as? DecodingFailure)?.reason, .unreadable)
        }
    }

    func testExpectationFormsForSteps() throws {
        let failures = captureFailures {
            expect(self.page).to(beDecodable(as: Page.self))
            expect(Data(self.page.utf8)).to(beDecodable(as: Page.self))
            expect(#"{"stories": [{"id": "1"}]}"#).to(beDecodable(as: Page.self))
            expect(#"{"stories": 3}"#).toNot(beDecodable(as: Page.self))
            expect { try decode(Page.self, fromJSON: #"{"stories": [{"id": "1", "title": "A"}]}"#) }
                .to(throwError(containing: "type mismatch (Int) at stories[0].id"))
            expect { try decode(Page.self, fromJSON: "{}") }.to(throwError(DecodingFailure.self))
        }
        XCTAssertEqual(
            failures,
            [
                "expected to be decodable as Page, got could not decode Page: type mismatch (Int) at stories[0].id: "
                    + "Expected to decode Int but found a string instead."
            ])
    }
}
