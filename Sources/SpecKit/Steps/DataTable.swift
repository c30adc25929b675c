/// A Gherkin data table for a step, header row first, shown under the step in the living document.
///
/// ```swift
/// Given("these readers", table: [
///     ["name", "email"],
///     ["Ada", "ada@example.com"],
///     ["Linus", "linus@example.com"],
/// ]) { table in
///     for row in table.hashes { backend.addReader(name: row["name"]!, email: row["email"]!) }
/// }
/// ```
public struct DataTable: Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// Every row, the header first, exactly as written.
    public let rows: [[String]]

    public init(_ rows: [[String]]) {
        self.rows = rows
    }

    public init(arrayLiteral rows: [String]...) {
        self.init(rows)
    }

    /// A table from a header and data rows.
    public init(header: [String], rows: [[String]]) {
        self.init([header] + rows)
    }

    /// The first row.
    public var header: [String] { rows.first ?? [] }

    /// The rows after the header.
    public var dataRows: [[String]] { Array(rows.dropFirst()) }

    /// Each data row keyed by the header: `[["name": "Ada", "email": "ada@example.com"], …]`.
    public var hashes: [[String: String]] {
        dataRows.map { row in
            var hash: [String: String] = [:]
            for (index, name) in header.enumerated() where index < row.count { hash[name] = row[index] }
            return hash
        }
    }

    /// Values of one column, by its header name (nil when there is no such column).
    public func column(_ name: String) -> [String]? {
        guard let index = header.firstIndex(of: name) else { return nil }
        return dataRows.map { index < $0.count ? $0[index] : "" }
    }

    /// A two-column table read as key → value (`| timeout | 5 |`), header row included.
    public var rowsHash: [String: String] {
        var hash: [String: String] = [:]
        for row in rows where row.count >= 2 { hash[row[0]] = row[1] }
        return hash
    }

    /// Why the table cannot be used: no rows, or a row whose cell count differs from the header's.
    var problem: String? {
        guard let width = rows.first?.count else { return "the data table has no rows" }
        for (index, row) in rows.enumerated() where row.count != width {
            return "data table row \(index + 1) has \(row.count) cell\(row.count == 1 ? "" : "s"), "
                + "the header has \(width)"
        }
        return nil
    }

    /// The table as Markdown rows, `|` in cells escaped.
    public var description: String {
        rows.map { "| " + $0.joined(separator: " | ") + " |" }.joined(separator: "\n")
    }
}

/// What a step carries besides its text: a data table or a doc string.
struct StepAttachment {
    var table: DataTable?
    var docString: String?
}
