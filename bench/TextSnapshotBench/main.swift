// Times TextSnapshot verifying 1,000 existing screen snapshots (render + read + byte-compare), against
// a reference measured in the same run: reading and byte-comparing the same 1,000 files with no recorder.
// Run with `make bench-snapshots` (release build). Exits 1 only if a verification is wrong.
import Foundation
import TextSnapshot

let count = Int(ProcessInfo.processInfo.environment["BENCH_SNAPSHOTS"] ?? "") ?? 1_000
let rounds = 5
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("text-snapshot-bench-\(getpid())")
defer { try? FileManager.default.removeItem(at: directory) }
let root = directory.appendingPathComponent("__Snapshots__").path

// 1,000 different screens: a story list in every language on every device, with varied titles.
let words = ["Swift", "並行処理", "snapshot", "Übersetzung", "اختبار", "テスト", "layout", "café", "👍🏽", "review", "écran", "diff"]
var generator = SeededRandomNumberGenerator(seed: 7).generator
struct Case { let name: String; let context: SnapshotContext; let screen: TextNode }
let cases: [Case] = (0..<count).map { index in
    let language = Language.allCases[index % Language.allCases.count]
    let device = Device.allCases[(index / Language.allCases.count) % Device.allCases.count]
    let rows: [TextNode] = (0..<12).map { row in
        let title = (0..<Int.random(in: 3...12, using: &generator)).map { _ in words.randomElement(using: &generator)! }.joined(separator: " ")
        return .row(leading: .text(title, lineLimit: 2), trailing: .text("\(row * 7 + index) pts"))
    }
    let screen = TextNode.stack([.titleBar("Stories \(index)", leading: "‹", trailing: "⟳"), .list(rows), .divider, .button("Load more")], spacing: 1)
    return Case(name: "screen\(index)", context: SnapshotContext(language: language, device: device), screen: screen)
}

func settings(_ record: RecordMode) -> (inout SnapshotSettings) -> Void {
    { $0.environment = [:]; $0.snapshotRoot = root; $0.artifactsDirectory = directory.appendingPathComponent("artifacts").path
      $0.ledger = SnapshotLedger(); $0.record = record }
}

func verifyAll(_ record: RecordMode) -> [SnapshotFailure?] {
    withSnapshotSettings(settings(record)) {
        cases.map { item in
            verifySnapshot(of: item.screen, as: .screen(item.context), named: item.name, file: "/bench/BenchTests.swift", testName: "testBench()")
        }
    }
}

func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

// Record once (every write fails by design), then verify.
let recorded = verifyAll(.all)
guard recorded.allSatisfy({ $0?.kind == .recorded }) else { print("error: recording failed"); exit(1) }
let paths = recorded.compactMap { $0?.writtenPaths.first }
let bytes = paths.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0) }

var verifyTimes: [Double] = []
var referenceTimes: [Double] = []
var layoutTimes: [Double] = []
var wrong = 0
for _ in 0..<rounds {
    verifyTimes.append(seconds { wrong += verifyAll(.never).filter { $0 != nil }.count })
    layoutTimes.append(seconds {
        var total = 0
        for item in cases { total += ScreenRenderer.render(item.screen, in: item.context).utf8.count }
        if total == 0 { wrong += 1 }
    })
    referenceTimes.append(seconds {
        for path in paths {
            let data = FileManager.default.contents(atPath: path) ?? Data()
            if data != data.prefix(data.count) { wrong += 1 }
        }
    })
}

// For scale: how long failing comparisons take (diff with hint lines) on 100 changed screens.
let changed = Array(cases.prefix(100))
let diffTime = seconds {
    withSnapshotSettings(settings(.never)) {
        for item in changed {
            let edited = TextNode.stack([item.screen, .text("extra line\u{202F}!")])
            if verifySnapshot(of: edited, as: .screen(item.context), named: item.name, file: "/bench/BenchTests.swift", testName: "testBench()") == nil { wrong += 1 }
        }
    }
}

let verify = median(verifyTimes)
let reference = median(referenceTimes)
let layout = median(layoutTimes)
print("TextSnapshot benchmark (\(count) screen snapshots, \(bytes / 1024) KiB, median of \(rounds) rounds)")
print(String(format: "  verify %d existing snapshots (layout + read + byte compare): %.3f s  (%.0f µs each)", count, verify, verify / Double(count) * 1e6))
print(String(format: "  reference: read + compare the same files, no recorder:       %.3f s", reference))
print(String(format: "  reference: layout only (render the screens, no files):       %.3f s", layout))
print(String(format: "  ratio verify / (layout + read):                              %.2f×", verify / max(layout + reference, 1e-9)))
print(String(format: "  100 mismatching snapshots with unified diff + hints:         %.3f s", diffTime))
print("  goal: verifying \(count) snapshots under 1 s — \(verify < 1 ? "met" : "NOT met")")
if wrong > 0 { print("error: \(wrong) verifications gave the wrong answer"); exit(1) }
