import Foundation
import SpecReporting

// `speckit`: SpecKit's report tools. Exit 0 on success, 64 on a usage error, 1 on a runtime error.

enum SpeckitHelp {
    static let topLevel = """
        speckit: SpecKit's report tools.

        Usage:
          speckit merge <report folder | fragments folder | file.jsonl>... -o <folder> [--allow-mixed-runs]
          speckit --help | speckit merge --help

        Subcommands:
          merge   merge the reports of the shards of a run (BDD_SHARD=i/n) into one report

        Exit status: 0 merged, 64 usage error, 1 the inputs cannot be merged truthfully.
        """

    static let merge = """
        speckit merge: merge the reports of a sharded run into one living document, JUnit file and HTML report.

        Usage:
          speckit merge <input>... -o <folder> [--allow-mixed-runs]

        Each <input> is one shard's BDD_REPORT_DIR (its scenarios.jsonl is read), a folder of
        fragments (every *.jsonl below it, e.g. <report dir>/fragments/<run id>), or one .jsonl file.
        Writes <folder>/LIVING-DOC.md, junit.xml, report.html and scenarios.jsonl.

        Options:
          -o, --output <folder>   where the merged report goes (created when missing)
          --allow-mixed-runs      merge fragments of different runs (different BDD_RUN_ID)
          -h, --help              show this help

        It refuses, naming the problem, when a shard is missing (shards 1, 2 and 4 of 4), a scenario
        appears in two inputs, sharded and unsharded fragments are mixed, or the fragments come from
        different runs (give every shard the same BDD_RUN_ID, e.g. the CI run's id).

        Example (a GitHub Actions merge job, after downloading each shard's report folder):
          speckit merge shard-1 shard-2 shard-3 shard-4 -o merged-report
        """
}

struct UsageError: Error {
    var message: String
    var command: String?
}

enum MergeCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        var inputs: [String] = []
        var output: String?
        var allowMixedRuns = false
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help":
                print(SpeckitHelp.merge)
                return 0
            case "-o", "--output":
                guard let value = rest.popFirst(), !value.isEmpty else {
                    throw UsageError(message: "\(argument) needs a folder", command: "merge")
                }
                output = value
            case "--allow-mixed-runs":
                allowMixedRuns = true
            case "--":
                inputs += rest
                rest = []
            default:
                if argument.hasPrefix("--output=") {
                    output = String(argument.dropFirst("--output=".count))
                } else if argument.hasPrefix("-") && argument != "-" {
                    throw UsageError(message: "unknown option '\(argument)'", command: "merge")
                } else {
                    inputs.append(argument)
                }
            }
        }
        guard let output, !output.isEmpty else {
            throw UsageError(message: "missing -o <folder>: where the merged report goes", command: "merge")
        }
        guard !inputs.isEmpty else {
            throw UsageError(message: "missing inputs: the shards' report folders or fragment files", command: "merge")
        }
        let loaded = try inputs.map { try ReportInput.load(path: $0) }
        for problem in loaded.flatMap(\.problems) {
            FileHandle.standardError.write(Data("speckit: warning: \(problem)\n".utf8))
        }
        let merged = try ShardMerge.merge(loaded, allowMixedRuns: allowMixedRuns)
        let files = try ShardMerge.write(merged, to: URL(fileURLWithPath: output, isDirectory: true))
        let shards = merged.shardCount.map { " from \($0) shard\($0 == 1 ? "" : "s")" } ?? ""
        print(
            "speckit: merged \(merged.reports.count) scenario\(merged.reports.count == 1 ? "" : "s")\(shards): "
                + ReportTally(merged.reports).summary)
        for file in files { print("  \(file.path)") }
        return 0
    }
}

func runSpeckit(_ arguments: [String]) -> Int32 {
    guard let subcommand = arguments.first else {
        FileHandle.standardError.write(Data("speckit: error: missing subcommand\nRun 'speckit --help' for usage.\n".utf8))
        return 64
    }
    do {
        switch subcommand {
        case "-h", "--help", "help":
            print(SpeckitHelp.topLevel)
            return 0
        case "merge":
            return try MergeCommand.run(Array(arguments.dropFirst()))
        default:
            throw UsageError(message: "unknown subcommand '\(subcommand)'", command: nil)
        }
    } catch let error as UsageError {
        let help = "speckit" + (error.command.map { " " + $0 } ?? "")
        FileHandle.standardError.write(Data("speckit: error: \(error.message)\nRun '\(help) --help' for usage.\n".utf8))
        return 64
    } catch {
        FileHandle.standardError.write(Data("speckit: error: \(error)\n".utf8))
        return 1
    }
}

exit(runSpeckit(Array(CommandLine.arguments.dropFirst())))
