// Steps with a Gherkin data table or doc string. The table or text is passed to the body and
// shown under the step in the living document. A ragged table fails the step before its body runs.

/// `Given` with a data table: `Given("these readers", table: [["name"], ["Ada"]]) { table in … }`.
@MainActor
public func Given(
    _ text: String, table: DataTable, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor (DataTable) throws -> Void
) {
    StepRunner.run("Given", text, CallSite(file: file, line: line), attachment: StepAttachment(table: table)) { try body(table) }
}

/// Async form of ``Given(_:table:file:line:_:)``.
@_disfavoredOverload
@MainActor
public func Given(
    _ text: String, table: DataTable, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor (DataTable) async throws -> Void
) async {
    await StepRunner.run("Given", text, CallSite(file: file, line: line), attachment: StepAttachment(table: table)) {
        try await body(table)
    }
}

/// `Given` with a doc string: `Given("the payload", docString: json) { text in … }`.
@MainActor
public func Given(
    _ text: String, docString: String, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor (String) throws -> Void
) {
    StepRunner.run("Given", text, CallSite(file: file, line: line), attachment: StepAttachment(docString: docString)) {
        try body(docString)
    }
}

/// Async form of ``Given(_:docString:file:line:_:)``.
@_disfavoredOverload
@MainActor
public func Given(
    _ text: String, docString: String, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor (String) async throws -> Void
) async {
    await StepRunner.run("Given", text, CallSite(file: file, line: line), attachment: StepAttachment(docString: docString)) {
        try await body(docString)
    }
}

/// `When` with a data table: `When("these readers", table: [["name"], ["Ada"]]) { table in … }`.
@MainActor
public func When(
    _ text: String, table: DataTable, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor (DataTable) throws -> Void
) {
    StepRunner.run("When", text, CallSite(file: file, line: line), attachment: StepAttachment(table: table)) { try body(table) }
}

/// Async form of ``When(_:table:file:line:_:)``.
@_disfavoredOverload
@MainActor
public func When(
    _ text: String, table: DataTable, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor (DataTable) async throws -> Void
) async {
    await StepRunner.run("When", text, CallSite(file: file, line: line), attachment: StepAttachment(table: table)) { try await body(table) }
}

/// `When` with a doc string: `When("the payload", docString: json) { text in … }`.
@MainActor
public func When(
    _ text: String, docString: String, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor (String) throws -> Void
) {
    StepRunner.run("When", text, CallSite(file: file, line: line), attachment: StepAttachment(docString: docString)) {
        try body(docString)
    }
}

/// Async form of ``When(_:docString:file:line:_:)``.
@_disfavoredOverload
@MainActor
public func When(
    _ text: String, docString: String, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor (String) async throws -> Void
) async {
    await StepRunner.run("When", text, CallSite(file: file, line: line), attachment: StepAttachment(docString: docString)) {
        try await body(docString)
    }
}

/// `Then` with a data table: `Then("these readers", table: [["name"], ["Ada"]]) { table in … }`.
@MainActor
public func Then(
    _ text: String, table: DataTable, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor (DataTable) throws -> Void
) {
    StepRunner.run("Then", text, CallSite(file: file, line: line), attachment: StepAttachment(table: table)) { try body(table) }
}

/// Async form of ``Then(_:table:file:line:_:)``.
@_disfavoredOverload
@MainActor
public func Then(
    _ text: String, table: DataTable, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor (DataTable) async throws -> Void
) async {
    await StepRunner.run("Then", text, CallSite(file: file, line: line), attachment: StepAttachment(table: table)) { try await body(table) }
}

/// `Then` with a doc string: `Then("the payload", docString: json) { text in … }`.
@MainActor
public func Then(
    _ text: String, docString: String, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor (String) throws -> Void
) {
    StepRunner.run("Then", text, CallSite(file: file, line: line), attachment: StepAttachment(docString: docString)) {
        try body(docString)
    }
}

/// Async form of ``Then(_:docString:file:line:_:)``.
@_disfavoredOverload
@MainActor
public func Then(
    _ text: String, docString: String, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor (String) async throws -> Void
) async {
    await StepRunner.run("Then", text, CallSite(file: file, line: line), attachment: StepAttachment(docString: docString)) {
        try await body(docString)
    }
}

/// `And` with a data table: `And("these readers", table: [["name"], ["Ada"]]) { table in … }`.
@MainActor
public func And(
    _ text: String, table: DataTable, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor (DataTable) throws -> Void
) {
    StepRunner.run("And", text, CallSite(file: file, line: line), attachment: StepAttachment(table: table)) { try body(table) }
}

/// Async form of ``And(_:table:file:line:_:)``.
@_disfavoredOverload
@MainActor
public func And(
    _ text: String, table: DataTable, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor (DataTable) async throws -> Void
) async {
    await StepRunner.run("And", text, CallSite(file: file, line: line), attachment: StepAttachment(table: table)) { try await body(table) }
}

/// `And` with a doc string: `And("the payload", docString: json) { text in … }`.
@MainActor
public func And(
    _ text: String, docString: String, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor (String) throws -> Void
) {
    StepRunner.run("And", text, CallSite(file: file, line: line), attachment: StepAttachment(docString: docString)) {
        try body(docString)
    }
}

/// Async form of ``And(_:docString:file:line:_:)``.
@_disfavoredOverload
@MainActor
public func And(
    _ text: String, docString: String, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor (String) async throws -> Void
) async {
    await StepRunner.run("And", text, CallSite(file: file, line: line), attachment: StepAttachment(docString: docString)) {
        try await body(docString)
    }
}

/// `But` with a data table: `But("these readers", table: [["name"], ["Ada"]]) { table in … }`.
@MainActor
public func But(
    _ text: String, table: DataTable, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor (DataTable) throws -> Void
) {
    StepRunner.run("But", text, CallSite(file: file, line: line), attachment: StepAttachment(table: table)) { try body(table) }
}

/// Async form of ``But(_:table:file:line:_:)``.
@_disfavoredOverload
@MainActor
public func But(
    _ text: String, table: DataTable, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor (DataTable) async throws -> Void
) async {
    await StepRunner.run("But", text, CallSite(file: file, line: line), attachment: StepAttachment(table: table)) { try await body(table) }
}

/// `But` with a doc string: `But("the payload", docString: json) { text in … }`.
@MainActor
public func But(
    _ text: String, docString: String, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor (String) throws -> Void
) {
    StepRunner.run("But", text, CallSite(file: file, line: line), attachment: StepAttachment(docString: docString)) {
        try body(docString)
    }
}

/// Async form of ``But(_:docString:file:line:_:)``.
@_disfavoredOverload
@MainActor
public func But(
    _ text: String, docString: String, file: StaticString = #filePath, line: UInt = #line,
    _ body: @MainActor (String) async throws -> Void
) async {
    await StepRunner.run("But", text, CallSite(file: file, line: line), attachment: StepAttachment(docString: docString)) {
        try await body(docString)
    }
}
