// `make bench-yaml`: how long the YAML reader takes on a large OpenAPI-shaped document, against
// the JSON parser on the same document as JSON, measured in the same run (the ratio is the
// number to watch; absolute times depend on the machine). Pass a file path to time that file
// instead of the generated one (for example GitHub's REST description). It also times the whole
// OpenAPILoader on the document, in YAML and as JSON.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import OpenAPI
import RehearsalJSON
import YAML

/// One GitHub-style path item: block scalars, multi-line plain text, quoted keys, `$ref`s.
func pathItem(_ number: Int) -> String {
    """
      "/repos/{owner}/{repo}/things-\(number)":
        get:
          summary: List things number \(number)
          description: |-
            Lists every thing in the repository. The list is paginated; use the
            `per_page` and `page` parameters.

            OAuth app tokens and personal access tokens (classic) need the `repo` scope.
          tags:
          - repos
          operationId: repos/list-things-\(number)
          parameters:
          - "$ref": "#/components/parameters/owner"
          - "$ref": "#/components/parameters/repo"
          - name: per_page
            description: The number of results per page (max 100). For more information,
              see "Using pagination in the REST API".
            in: query
            schema:
              type: integer
              minimum: 1
              maximum: 100
              default: 30
          - name: state
            in: query
            schema: {type: string, enum: [open, closed, all], default: open}
          responses:
            '200':
              description: Response
              content:
                application/json:
                  schema:
                    type: array
                    items:
                      "$ref": "#/components/schemas/thing"
                  examples:
                    default:
                      value:
                      - id: \(number)
                        name: 'thing ''\(number)'''
                        ratio: 0.75
                        archived: false
                        owner: ~
            '404':
              "$ref": "#/components/responses/not_found"
          x-github:
            githubCloudOnly: false
            enabledForGitHubApps: true
            category: repos

    """
}

func generated(bytes target: Int) -> [UInt8] {
    var text = "---\nopenapi: 3.0.3\ninfo:\n  title: Generated\n  version: 1.0.0\npaths:\n"
    var number = 0
    while text.utf8.count < target {
        text += pathItem(number)
        number += 1
    }
    text += """
        components:
          parameters:
            owner: {name: owner, in: path, required: true, schema: {type: string}}
            repo: {name: repo, in: path, required: true, schema: {type: string}}
          responses:
            not_found: {description: Resource not found}
          schemas:
            thing: {type: object, properties: {id: {type: integer}}}

        """
    return Array(text.utf8)
}

func peakResidentKilobytes() -> Int {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    return Int(usage.ru_maxrss)  // kilobytes on Linux
    #else
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss) / 1024  // bytes on Darwin
    #endif
}

/// User + system CPU seconds of this process: less disturbed than wall time on a shared machine.
func cpuSeconds() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// Wall and CPU seconds of `body`.
func seconds(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    let cpuStart = cpuSeconds()
    try body()
    return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, cpuSeconds() - cpuStart)
}

let arguments = CommandLine.arguments.dropFirst()
let yaml: [UInt8]
let source: String
if let path = arguments.first {
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write("yaml-bench: cannot read \(path)\n".data(using: .utf8)!)
        exit(1)
    }
    yaml = [UInt8](data)
    source = path
} else {
    yaml = generated(bytes: 10 << 20)
    source = "generated OpenAPI-shaped document"
}
print("yaml-bench: \(source), \(yaml.count) bytes")
var value: JSONValue = .null
let rssBefore = peakResidentKilobytes()
let parseTime = try seconds { value = try YAMLReader.json(from: yaml) }
let rssAfter = peakResidentKilobytes()
let json = Array(value.compactText.utf8)
let jsonTime = try seconds { _ = try JSONValue(parsing: json) }
print(String(format: "  YAML -> JSONValue: %.3f s wall, %.3f s CPU (%.1f MB/s of CPU)", parseTime.wall, parseTime.cpu, Double(yaml.count) / parseTime.cpu / 1e6))
print(String(format: "  same document as JSON (%d bytes) with JSONParser: %.3f s wall, %.3f s CPU; YAML/JSON CPU ratio %.2f", json.count, jsonTime.wall, jsonTime.cpu, parseTime.cpu / jsonTime.cpu))
print("  peak RSS: \(rssAfter / 1024) MB (\(rssBefore / 1024) MB before parsing)")

// The whole OpenAPI load (YAML, $ref checks, the operation model) of the same bytes.
var operations = 0
let loadTime = try seconds { operations = try OpenAPILoader().load(bytes: yaml, name: "bench.yaml").operations.count }
print(String(format: "  OpenAPILoader on the YAML: %.3f s wall, %.3f s CPU (%d operations)", loadTime.wall, loadTime.cpu, operations))
print("  peak RSS after loading: \(peakResidentKilobytes() / 1024) MB")
let jsonLoadTime = try seconds { operations = try OpenAPILoader().load(bytes: json, name: "bench.json").operations.count }
print(String(format: "  OpenAPILoader on the same document as JSON: %.3f s wall, %.3f s CPU", jsonLoadTime.wall, jsonLoadTime.cpu))
