import Foundation
import RehearsalJSON
import YAML

/// Reads an OpenAPI document and the files its `$ref`s name into an `OpenAPIDocument`,
/// reporting every problem with the document, JSON path, line and column.
///
/// ```swift
/// let api = try OpenAPILoader().load("Stubs/openapi.json")
/// ```
public struct OpenAPILoader: Sendable {
    /// Parses a YAML document into nodes whose offsets are UTF-8 offsets into the same bytes
    /// (our YAML reader), so errors in YAML documents name lines and columns the same way.
    package var parseYAML: (@Sendable ([UInt8]) throws -> JSONNode)? = { bytes in try YAMLReader.jsonNode(from: bytes) }
    /// Files a `$ref` may name must lie in this folder (default: the top document's folder).
    public var root: String?
    public var workingDirectory: String
    public var fileCap: Int = DocumentFile.cap

    public init(workingDirectory: String = FileManager.default.currentDirectoryPath) {
        self.workingDirectory = workingDirectory
    }

    /// Loads `path` (JSON, or YAML once a reader is plugged in) and every file it refers to.
    public func load(_ path: String) throws(OpenAPIError) -> OpenAPIDocument {
        let absolute = DocumentFile.normalize(path, relativeTo: workingDirectory)
        let folder = root.map { DocumentFile.normalize($0, relativeTo: workingDirectory) } ?? DocumentSet.directory(of: absolute)
        let bytes: [UInt8]
        do throws(DocumentFile.Failure) {
            bytes = try DocumentFile.read(absolute, name: path, root: nil, cap: fileCap)
        } catch {
            throw OpenAPIError([OpenAPIDiagnostic(file: path, path: "", message: error.message)])
        }
        return try build(bytes, name: path, path: absolute, folder: folder)
    }

    /// A document held in memory (`$ref`s to other files are refused).
    public func load(bytes: [UInt8], name: String) throws(OpenAPIError) -> OpenAPIDocument {
        try build(bytes, name: name, path: "", folder: nil)
    }

    private func parse(_ bytes: [UInt8], name: String) throws(OpenAPIError) -> JSONNode {
        let first = bytes.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }
        // `.yaml`/`.yml` names are YAML even when they start with a flow collection (`{openapi: …}`).
        let lowercased = name.lowercased()
        let namedYAML = lowercased.hasSuffix(".yaml") || lowercased.hasSuffix(".yml")
        let looksJSON = !namedYAML && (first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || lowercased.hasSuffix(".json"))
        if looksJSON || parseYAML == nil {
            do throws(JSONSyntaxError) {
                return try JSONParser.parse(bytes)
            } catch {
                let hint = looksJSON || parseYAML != nil ? "" : " (no YAML reader is configured; convert the document to JSON)"
                throw OpenAPIError([
                    OpenAPIDiagnostic(
                        file: name, path: "", message: "malformed JSON: \(error.message)\(hint)", position: error.position)
                ])
            }
        }
        do {
            return try parseYAML!(bytes)
        } catch let error as YAMLSyntaxError {
            throw OpenAPIError([
                OpenAPIDiagnostic(file: name, path: "", message: "malformed YAML: \(error.message)", position: error.position)
            ])
        } catch {
            throw OpenAPIError([OpenAPIDiagnostic(file: name, path: "", message: "malformed YAML: \(error)")])
        }
    }

    private func displayName(_ absolute: String) -> String {
        let prefix = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }

    private func build(_ bytes: [UInt8], name: String, path: String, folder: String?) throws(OpenAPIError) -> OpenAPIDocument {
        let root = try parse(bytes, name: name)
        var set = DocumentSet(documents: [SourceDocument(name: name, path: path, bytes: bytes, root: root)])
        var diagnostics: [OpenAPIDiagnostic] = []
        loadReferencedFiles(&set, folder: folder, diagnostics: &diagnostics)
        guard diagnostics.isEmpty else { throw OpenAPIError(diagnostics) }
        var builder = ModelBuilder(sources: set)
        let document = builder.build()
        guard builder.diagnostics.isEmpty, let document else { throw OpenAPIError(builder.diagnostics) }
        return document
    }

    /// Loads every file a `$ref` names (breadth first, each once) and checks every `$ref`
    /// points at something, so validation never touches the disk.
    private func loadReferencedFiles(_ set: inout DocumentSet, folder: String?, diagnostics: inout [OpenAPIDiagnostic]) {
        var next = 0
        var failed: Set<String> = []
        while next < set.documents.count {
            let index = next
            next += 1
            var references: [(pointer: String, value: String)] = []
            Self.collectReferences(set.documents[index].root, pointer: "", into: &references)
            for reference in references {
                let (file, _) = DocumentSet.split(reference.value)
                guard !file.isEmpty else { continue }
                let here = set.location(index, reference.pointer)
                if file.contains("://") {
                    diagnostics.append(
                        set.diagnostic(here, "\(PathText.quoted(reference.value)): only local files can be referenced, not URLs"))
                    continue
                }
                guard let folder, !set.documents[index].path.isEmpty else {
                    diagnostics.append(
                        set.diagnostic(here, "\(PathText.quoted(reference.value)): a document read from memory cannot refer to other files")
                    )
                    continue
                }
                let absolute = DocumentFile.normalize(file, relativeTo: DocumentSet.directory(of: set.documents[index].path))
                if set.documents.contains(where: { $0.path == absolute }) || failed.contains(absolute) { continue }
                let bytes: [UInt8]
                do throws(DocumentFile.Failure) {
                    bytes = try DocumentFile.read(absolute, name: displayName(absolute), root: folder, cap: fileCap)
                } catch {
                    failed.insert(absolute)
                    diagnostics.append(set.diagnostic(here, error.message))
                    continue
                }
                do throws(OpenAPIError) {
                    let node = try parse(bytes, name: displayName(absolute))
                    set.documents.append(SourceDocument(name: displayName(absolute), path: absolute, bytes: bytes, root: node))
                } catch {
                    failed.insert(absolute)
                    diagnostics += error.diagnostics
                }
            }
        }
        guard diagnostics.isEmpty else { return }
        set.index()
        for index in set.documents.indices {
            var references: [(pointer: String, value: String)] = []
            Self.collectReferences(set.documents[index].root, pointer: "", into: &references)
            for reference in references {
                let here = set.location(index, reference.pointer)
                if case .failure(let failure) = set.resolve(reference.value, from: index) {
                    diagnostics.append(set.diagnostic(here, failure.message))
                } else if case .failure(let failure) = set.dereference(
                    DocumentLocation(document: index, pointer: String(reference.pointer.dropLast("/$ref".count)), fileName: nil))
                {
                    diagnostics.append(set.diagnostic(here, failure.message))
                }
            }
        }
    }

    /// Every `{"$ref": "…"}` string below `node`, with the pointer of the `$ref` member.
    /// `example` values are data, not references, and are skipped.
    static func collectReferences(_ node: JSONNode, pointer: String, into references: inout [(pointer: String, value: String)]) {
        if let members = node.members {
            for member in members {
                let childPointer = pointer + "/" + DocumentSet.escape(member.key)
                if member.key == "$ref", let value = member.value.stringValue {
                    references.append((childPointer, value))
                } else if member.key != "example" {
                    collectReferences(member.value, pointer: childPointer, into: &references)
                }
            }
        } else if let elements = node.elements {
            for (index, element) in elements.enumerated() {
                collectReferences(element, pointer: pointer + "/" + String(index), into: &references)
            }
        }
    }
}
