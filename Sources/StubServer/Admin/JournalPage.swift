/// One page of journal entries for the admin API's listings (`GET /__admin/requests`,
/// `POST /__admin/requests/find`): 10,000 entries with 64 KiB bodies would be a reply of
/// hundreds of megabytes, so a listing is cut at `limit` entries and at `maxBytes` of bodies
/// and headers, whichever comes first, and says where the next page starts.
///
/// `offset` counts from the oldest entry kept; without one the page is the newest `limit`
/// entries (what `?limit=N` always meant). Entries stay oldest first within a page.
struct JournalPage {
    static let defaultLimit = 100
    static let maxLimit = 1_000
    /// Roughly what a page's JSON may hold: bodies, headers and a few hundred bytes per entry.
    static let maxBytes = 8 * 1024 * 1024

    var limit: Int
    var offset: Int?

    /// Reads `limit` and `offset` from a query; a 400-worthy message for a bad value.
    init(query: [String: String]) throws(AdminEndpoint.Failure) {
        limit = Self.defaultLimit
        if let text = query["limit"] {
            guard let value = Int(text), value >= 0 else {
                throw AdminEndpoint.Failure(status: 400, message: "limit: expected a non-negative number, got \(quoted(text))")
            }
            guard value <= Self.maxLimit else {
                throw AdminEndpoint.Failure(
                    status: 400, message: "limit: at most \(Self.maxLimit) entries a page, got \(value); page with offset")
            }
            limit = value
        }
        if let text = query["offset"] {
            guard let value = Int(text), value >= 0 else {
                throw AdminEndpoint.Failure(status: 400, message: "offset: expected a non-negative number, got \(quoted(text))")
            }
            offset = value
        }
    }

    /// `{"requests": […], "total": T, "offset": O, "next": N|null}` for `entries` (all of them,
    /// oldest first): only the page's entries are turned into JSON.
    func json(_ entries: [JournalEntry]) -> JSONValue {
        let total = entries.count
        let start = min(offset ?? max(0, total - limit), total)
        var end = start
        var bytes = 0
        while end < total && end - start < limit {
            let entry = entries[end]
            let size =
                300 + entry.request.body.count * 2 + entry.request.target.utf8.count
                + entry.request.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 32 }
            if end > start && bytes + size > Self.maxBytes { break }
            bytes += size
            end += 1
        }
        let page = entries[start..<end].map(ContractViolationJSON.entry)
        return [
            "requests": .array(page), "total": .number(JSONNumber(total)), "offset": .number(JSONNumber(start)),
            "next": end < total ? .number(JSONNumber(end)) : .null,
        ]
    }
}
