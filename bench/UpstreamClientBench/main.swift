// `make bench-proxy` (second part): the upstream client against URLSession, sending the same
// requests to the same upstream (a stubserver on 127.0.0.1:PORT/bench) at the same concurrency.
// Prints requests per second and the median latency of each, and their ratio.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubServer

let arguments = CommandLine.arguments
guard arguments.count >= 2, let port = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: UpstreamClientBench PORT [REQUESTS] [CONCURRENCY]\n".utf8))
    exit(64)
}
let total = arguments.count > 2 ? Int(arguments[2]) ?? 20_000 : 20_000
let concurrency = arguments.count > 3 ? Int(arguments[3]) ?? 32 : 32
let url = "http://127.0.0.1:\(port)/bench"

final class Tally: @unchecked Sendable {
    let lock = NSLock()
    var latencies: [UInt64] = []
    var failures = 0
    func add(_ nanos: UInt64, ok: Bool) {
        lock.lock()
        if ok { latencies.append(nanos) } else { failures += 1 }
        lock.unlock()
    }
}

@Sendable func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Keeps `concurrency` requests in flight until `total` are done.
func run(_ name: String, send: @escaping @Sendable (@escaping @Sendable (Bool) -> Void) -> Void) {
    let tally = Tally()
    let done = DispatchSemaphore(value: 0)
    let issued = ManagedCounter()
    let start = now()
    @Sendable func next() {
        guard issued.increment() <= total else { return }
        let began = now()
        send { ok in
            tally.add(now() - began, ok: ok)
            if tally.latencies.count + tally.failures == total { done.signal() } else { next() }
        }
    }
    for _ in 0..<concurrency { next() }
    done.wait()
    let seconds = Double(now() - start) / 1e9
    let sorted = tally.latencies.sorted()
    let p50 = sorted.isEmpty ? 0 : Double(sorted[sorted.count / 2]) / 1e6
    print(String(format: "%-14@ %8.0f req/s  p50 %6.3f ms  failures %d", name as NSString, Double(total) / seconds, p50, tally.failures))
    results[name] = Double(total) / seconds
}

final class ManagedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func increment() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
}

nonisolated(unsafe) var results: [String: Double] = [:]

let client = UpstreamClient.shared
let request = try UpstreamRequest(method: "GET", url: url)
let configuration = URLSessionConfiguration.ephemeral
configuration.httpMaximumConnectionsPerHost = concurrency
let session = URLSession(configuration: configuration)

print("\(total) GETs, \(concurrency) in flight, to \(url)")
for round in 1...2 {
    run("UpstreamClient") { finish in
        client.send(request) { result in finish((try? result.get().status) == 200) }
    }
    run("URLSession") { finish in
        session.dataTask(with: URL(string: url)!) { _, response, _ in
            finish((response as? HTTPURLResponse)?.statusCode == 200)
        }.resume()
    }
    if round == 2, let ours = results["UpstreamClient"], let theirs = results["URLSession"] {
        print(String(format: "UpstreamClient/URLSession throughput: %.2fx", ours / theirs))
    }
}
