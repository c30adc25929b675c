extension RecordedRequest {
    /// The admin API's view of a journal entry (`GET /__admin/requests`, `StubServer.requests()`).
    init(_ entry: JournalEntry) {
        let (seconds, attoseconds) = entry.duration.components
        self.init(
            sequence: entry.sequence,
            method: entry.request.method,
            uri: entry.path,
            query: entry.request.rawQuery.map(String.init),
            headers: entry.request.headers.map { Header(name: $0.name, value: $0.value) },
            body: String(decoding: entry.request.body, as: UTF8.self),
            bodySize: entry.bodySize,
            bodyTruncated: entry.bodyTruncated,
            stub: entry.stub?.description,
            source: entry.stub.map { $0.isAdded ? StubReference.addedFile : $0.description },
            nearMisses: entry.nearMisses.map { NearMiss(stub: $0.stub.description, differences: $0.differences) },
            status: entry.status,
            time: entry.receivedAt,
            durationMilliseconds: Double(seconds) * 1000 + Double(attoseconds) / 1e15,
            rejection: entry.rejection)
    }
}
