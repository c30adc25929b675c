import Foundation
import RehearsalJSON

/// One file of an OpenAPI document: the top document or a file a `$ref` names.
package struct SourceDocument: Sendable {
    /// As messages call it (relative to the working directory when inside it).
    package var name: String
    /// Absolute path; empty for a document parsed from memory.
    package var path: String
    package var bytes: [UInt8]
    package var root: JSONNode
}

/// The top document and every file its `$ref`s reach, with JSON pointer lookup and `$ref`
/// resolution. Every file is loaded (and every `$ref` checked) before the model is built, so
/// resolving is a pure lookup: validators share the set across threads.
package struct DocumentSet: Sendable {
    package var documents: [SourceDocument]

    package func location(_ document: Int, _ pointer: String) -> DocumentLocation {
        DocumentLocation(document: document, pointer: pointer, fileName: document == 0 ? nil : documents[document].name)
    }

    package func node(at location: DocumentLocation) -> JSONNode? {
        node(in: location.document, pointer: location.pointer)
    }

    /// Objects with more members than this get a key index (`paths` and `components.schemas`
    /// of a large API have thousands), so following a pointer never scans them.
    static let indexedObjectSize = 16

    /// Per document: for each large object (by its offset), key → member position.
    private var memberIndexes: [[Int: [String: Int]]] = []

    package init(documents: [SourceDocument]) {
        self.documents = documents
    }

    /// Builds the key indexes of large objects; call once every document is loaded.
    package mutating func index() {
        memberIndexes = documents.map { document in
            var index: [Int: [String: Int]] = [:]
            Self.collectIndexes(document.root, into: &index)
            return index
        }
    }

    private static func collectIndexes(_ node: JSONNode, into index: inout [Int: [String: Int]]) {
        if let members = node.members {
            if members.count > indexedObjectSize {
                var keys: [String: Int] = [:]
                keys.reserveCapacity(members.count)
                for (position, member) in members.enumerated() where keys[member.key] == nil { keys[member.key] = position }
                index[node.offset] = keys
            }
            for member in members { collectIndexes(member.value, into: &index) }
        } else if let elements = node.elements {
            for element in elements { collectIndexes(element, into: &index) }
        }
    }

    /// The node `pointer` (`/components/schemas/Pet`, tokens escaped with `~0 ~1`) names in a document.
    package func node(in document: Int, pointer: String) -> JSONNode? {
        var node = documents[document].root
        let index = document < memberIndexes.count ? memberIndexes[document] : [:]
        for token in Self.tokens(of: pointer) {
            if let members = node.members {
                if members.count > Self.indexedObjectSize, let keys = index[node.offset] {
                    guard let position = keys[token] else { return nil }
                    node = members[position].value
                } else {
                    guard let child = members.first(where: { $0.key == token }) else { return nil }
                    node = child.value
                }
            } else if let elements = node.elements {
                guard let position = Int(token), position >= 0, position < elements.count, String(position) == token else { return nil }
                node = elements[position]
            } else {
                return nil
            }
        }
        return node
    }

    package static func tokens(of pointer: String) -> [String] {
        guard !pointer.isEmpty else { return [] }
        let parts = pointer.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        return parts.map { part in
            let token = String(Substring(part))
            guard token.utf8.contains(UInt8(ascii: "~")) else { return token }
            return token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    package static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// The JSON path (`.paths["/users/{id}"].get`) of a pointer in a document, for messages.
    package func jsonPath(_ location: DocumentLocation) -> String {
        var node = documents[location.document].root
        var path = ""
        var pointer = ""
        for token in Self.tokens(of: location.pointer) {
            pointer += "/" + Self.escape(token)
            if node.members != nil, let child = self.node(in: location.document, pointer: pointer) {
                path += JSONPathText.key(token, asciiOnly: true)
                node = child
            } else if let elements = node.elements, let index = Int(token), index >= 0, index < elements.count {
                path += JSONPathText.index(index)
                node = elements[index]
            } else {
                path += JSONPathText.key(token, asciiOnly: true)
            }
        }
        return path
    }

    package func position(_ location: DocumentLocation) -> SourcePosition? {
        guard let node = node(at: location) else { return nil }
        return SourcePosition.locate(offset: node.offset, in: documents[location.document].bytes)
    }

    package func diagnostic(_ location: DocumentLocation, _ message: String) -> OpenAPIDiagnostic {
        OpenAPIDiagnostic(
            file: documents[location.document].name, path: jsonPath(location), message: message, position: position(location))
    }

    /// Where `reference` (a `$ref` value written in `document`) points. Files must already be loaded.
    package func resolve(_ reference: String, from document: Int) -> Result<DocumentLocation, ReferenceFailure> {
        let (file, fragment) = Self.split(reference)
        var target = document
        if !file.isEmpty {
            let base = documents[document].path
            let absolute = DocumentFile.normalize(file, relativeTo: Self.directory(of: base))
            guard let index = documents.firstIndex(where: { $0.path == absolute }) else {
                return .failure(ReferenceFailure(message: "the file \(PathText.quoted(file)) is not loaded"))
            }
            target = index
        }
        guard fragment.isEmpty || fragment.hasPrefix("/") else {
            return .failure(ReferenceFailure(message: "\(PathText.quoted(reference)): only JSON pointers (#/…) are supported, not anchors"))
        }
        guard node(in: target, pointer: fragment) != nil else {
            return .failure(
                ReferenceFailure(
                    message:
                        "\(PathText.quoted(reference)) points at nothing: \(PathText.quoted("#" + fragment)) is not in \(documents[target].name)"
                ))
        }
        return .success(location(target, fragment))
    }

    package struct ReferenceFailure: Error, Sendable {
        package var message: String
    }

    /// `pets.json#/Pet` → (`pets.json`, `/Pet`), the fragment percent-decoded.
    package static func split(_ reference: String) -> (file: String, fragment: String) {
        guard let hash = reference.firstIndex(of: "#") else { return (reference, "") }
        let fragment = String(reference[reference.index(after: hash)...])
        return (String(reference[..<hash]), fragment.removingPercentEncoding ?? fragment)
    }

    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Follows `$ref`s from `location` to a node that is not a bare reference. A chain that
    /// comes back to itself with nothing in between is an error (a recursive schema has
    /// structure between the references, e.g. `properties`, and never gets here).
    package func dereference(_ start: DocumentLocation) -> Result<(DocumentLocation, JSONNode), ReferenceFailure> {
        var current = start
        var seen: [DocumentLocation] = []
        while true {
            guard let node = node(at: current) else {
                return .failure(ReferenceFailure(message: "\(current) points at nothing"))
            }
            guard let reference = node.members?.first(where: { $0.key == "$ref" })?.value.stringValue else {
                return .success((current, node))
            }
            if seen.contains(current) {
                return .failure(
                    ReferenceFailure(
                        message: "a $ref cycle with nothing in between: " + (seen + [current]).map(\.description).joined(separator: " → ")))
            }
            seen.append(current)
            switch resolve(reference, from: current.document) {
            case .failure(let failure): return .failure(failure)
            case .success(let next): current = next
            }
        }
    }
}
