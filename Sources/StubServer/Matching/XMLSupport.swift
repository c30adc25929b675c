import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// A small immutable XML element tree, built with `XMLParser` (available on every platform,
/// never fetches external entities). Comments are dropped, CDATA is text, and whitespace-only
/// text between elements is ignored, as moco's XML comparison does.
struct XMLElementNode: Sendable, Hashable {
    indirect enum Child: Sendable, Hashable {
        case element(XMLElementNode)
        case text(String)
    }

    var name: String
    var attributes: [String: String]
    var children: [Child]

    var elements: [XMLElementNode] {
        children.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    /// All text below this element, in document order (XPath's string value).
    var stringValue: String {
        var out = ""
        for child in children {
            switch child {
            case .text(let text): out += text
            case .element(let element): out += element.stringValue
            }
        }
        return out
    }

    /// Same names, attributes and content (moco's `xml` operator).
    func isEquivalent(to other: XMLElementNode) -> Bool { self == other }

    /// Same element names, nesting and attribute names; any text (moco's `struct: {xml}`).
    func hasSameStructure(as shape: XMLElementNode) -> Bool {
        guard name == shape.name, Set(attributes.keys) == Set(shape.attributes.keys) else { return false }
        let mine = elements
        let theirs = shape.elements
        guard mine.count == theirs.count else { return false }
        return zip(mine, theirs).allSatisfy { $0.hasSameStructure(as: $1) }
    }

    /// Parses a document; nil when it is not well-formed XML.
    static func parse(_ bytes: [UInt8]) -> XMLElementNode? {
        guard !bytes.isEmpty else { return nil }
        let builder = XMLTreeBuilder()
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let ok = parser.parse()
        guard ok, parser.parserError == nil, !builder.failed else { return nil }
        return builder.root
    }

    /// The element as a JSON-like value for templates (`req.xml.order.id`): elements with only
    /// text become strings, repeated names become arrays.
    var templateJSON: JSONValue {
        let childElements = elements
        if childElements.isEmpty { return .string(stringValue) }
        var object = JSONObject()
        for element in childElements {
            let value = element.templateJSON
            switch object[element.name] {
            case nil: object.set(element.name, value)
            case .array(var existing)?:
                existing.append(value)
                object.set(element.name, .array(existing))
            case let single?: object.set(element.name, .array([single, value]))
            }
        }
        return .object(object)
    }
}

/// Builds `XMLElementNode`s from parser events.
private final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [XMLElementNode] = []
    private var text = ""
    var root: XMLElementNode?
    var failed = false
    private var depth = 0

    private func flushText() {
        defer { text = "" }
        guard !stack.isEmpty else { return }
        if text.contains(where: { !$0.isWhitespace }) {
            stack[stack.count - 1].children.append(.text(text))
        }
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        flushText()
        depth += 1
        if depth > 256 {
            failed = true
            parser.abortParsing()
            return
        }
        stack.append(XMLElementNode(name: elementName, attributes: attributeDict, children: []))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        flushText()
        depth -= 1
        guard let finished = stack.popLast() else { return }
        if stack.isEmpty {
            root = finished
        } else {
            stack[stack.count - 1].children.append(.element(finished))
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        text += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { failed = true }
}

/// An XPath 1.0 location path, the subset used to pick values out of request bodies:
/// `/a/b`, `//b`, `a/b`, `*`, `@id`, `@*`, `text()`, `node()`, `.`, `..`, and predicates
/// `[1]`, `[last()]`, `[@id]`, `[@id='7']`, `[name='x']`, `[text()='x']`.
struct XPathExpression: Sendable, Hashable {
    enum Axis: Sendable, Hashable { case child, descendantOrSelf }
    enum NodeTest: Sendable, Hashable {
        case name(String)
        case anyElement
        case text
        case node
        case attribute(String)
        case anyAttribute
        case current
        case parent
    }
    enum Predicate: Sendable, Hashable {
        case position(Int)
        case last
        case hasAttribute(String)
        case attributeEquals(String, String)
        case childEquals(String, String)
        case textEquals(String)
    }
    struct Step: Sendable, Hashable {
        var axis: Axis
        var test: NodeTest
        var predicates: [Predicate]
    }

    struct SyntaxError: Error, Sendable, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    let source: String
    let steps: [Step]

    init(_ source: String) throws(SyntaxError) {
        self.source = source
        var steps: [Step] = []
        let characters = Array(source.trimmingASCIIWhitespace())
        guard !characters.isEmpty else { throw SyntaxError(message: "empty XPath") }
        var index = 0
        var axis = Axis.child
        if characters.first != "/" { axis = .child } // relative to the document
        while index < characters.count {
            if characters[index] == "/" {
                if index + 1 < characters.count, characters[index + 1] == "/" {
                    axis = .descendantOrSelf
                    index += 2
                } else {
                    axis = .child
                    index += 1
                }
            }
            guard index < characters.count else { throw SyntaxError(message: "XPath \(quoted(source)) ends with '/'") }
            var token = ""
            while index < characters.count, characters[index] != "/", characters[index] != "[" {
                token.append(characters[index])
                index += 1
            }
            token = token.trimmingASCIIWhitespace()
            let test: NodeTest
            switch token {
            case "*": test = .anyElement
            case "text()": test = .text
            case "node()": test = .node
            case ".": test = .current
            case "..": test = .parent
            case "@*": test = .anyAttribute
            case "": throw SyntaxError(message: "missing step in XPath \(quoted(source))")
            default:
                if token.hasPrefix("@") {
                    let name = String(token.dropFirst())
                    guard Self.isName(name) else {
                        throw SyntaxError(message: "invalid attribute name '\(name)' in XPath \(quoted(source))")
                    }
                    test = .attribute(name)
                } else {
                    guard Self.isName(token) else {
                        throw SyntaxError(
                            message:
                                "unsupported step '\(token)' in XPath \(quoted(source)); supported: names, *, @name, text(), node(), ., ..")
                    }
                    test = .name(token)
                }
            }
            var predicates: [Predicate] = []
            while index < characters.count, characters[index] == "[" {
                var body = ""
                index += 1
                var quote: Character?
                while index < characters.count {
                    let character = characters[index]
                    if let open = quote {
                        if character == open { quote = nil }
                    } else if character == "'" || character == "\"" {
                        quote = character
                    } else if character == "]" {
                        break
                    }
                    body.append(character)
                    index += 1
                }
                guard index < characters.count else { throw SyntaxError(message: "'[' without ']' in XPath \(quoted(source))") }
                index += 1
                predicates.append(try Self.predicate(body.trimmingASCIIWhitespace(), source: source))
            }
            steps.append(Step(axis: axis, test: test, predicates: predicates))
            axis = .child
        }
        self.steps = steps
    }

    private static func isName(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." || $0 == ":" }
    }

    private static func predicate(_ body: String, source: String) throws(SyntaxError) -> Predicate {
        if let position = Int(body) {
            guard position >= 1 else { throw SyntaxError(message: "XPath positions start at 1 in \(quoted(source))") }
            return .position(position)
        }
        if body == "last()" { return .last }
        if let equals = body.firstIndex(of: "=") {
            let left = body[..<equals].trimmingASCIIWhitespace()
            var right = body[body.index(after: equals)...].trimmingASCIIWhitespace()
            guard right.count >= 2, let open = right.first, open == "'" || open == "\"", right.last == open else {
                throw SyntaxError(message: "a predicate compares with a quoted string, e.g. [@id='7'], in \(quoted(source))")
            }
            right = String(right.dropFirst().dropLast())
            if left.hasPrefix("@") { return .attributeEquals(String(left.dropFirst()), right) }
            if left == "text()" || left == "." { return .textEquals(right) }
            guard isName(left) else { throw SyntaxError(message: "unsupported predicate [\(body)] in \(quoted(source))") }
            return .childEquals(left, right)
        }
        if body.hasPrefix("@"), isName(String(body.dropFirst())) { return .hasAttribute(String(body.dropFirst())) }
        throw SyntaxError(message: "unsupported predicate [\(body)] in \(quoted(source))")
    }

    private enum Node {
        case document(XMLElementNode)
        case element(XMLElementNode, parent: [XMLElementNode])
        case attribute(String)
        case text(String)

        var stringValue: String {
            switch self {
            case .document(let root): root.stringValue
            case .element(let element, _): element.stringValue
            case .attribute(let value), .text(let value): value
            }
        }
    }

    /// The string values of the selected nodes, in document order.
    func evaluate(_ root: XMLElementNode) -> [String] {
        var current: [Node] = [.document(root)]
        for step in steps {
            var next: [Node] = []
            for node in current {
                let bases: [Node] = step.axis == .child ? [node] : Self.selfAndDescendants(node)
                var selected: [Node] = []
                for base in bases { selected.append(contentsOf: Self.apply(step.test, to: base)) }
                next.append(contentsOf: Self.filter(selected, step.predicates))
            }
            current = next
            if current.isEmpty { break }
        }
        return current.map(\.stringValue)
    }

    private static func children(of node: Node) -> [Node] {
        switch node {
        case .document(let root): return [.element(root, parent: [])]
        case .element(let element, let parents):
            return element.children.map {
                switch $0 {
                case .element(let child): .element(child, parent: parents + [element])
                case .text(let text): .text(text)
                }
            }
        default: return []
        }
    }

    private static func selfAndDescendants(_ node: Node) -> [Node] {
        var result: [Node] = [node]
        for child in children(of: node) {
            if case .element = child { result.append(contentsOf: selfAndDescendants(child)) }
        }
        return result
    }

    private static func apply(_ test: NodeTest, to node: Node) -> [Node] {
        switch test {
        case .name(let name):
            return children(of: node).filter { if case .element(let element, _) = $0 { element.name == name } else { false } }
        case .anyElement:
            return children(of: node).filter { if case .element = $0 { true } else { false } }
        case .text:
            return children(of: node).filter { if case .text = $0 { true } else { false } }
        case .node:
            return children(of: node)
        case .attribute(let name):
            guard case .element(let element, _) = node, let value = element.attributes[name] else { return [] }
            return [.attribute(value)]
        case .anyAttribute:
            guard case .element(let element, _) = node else { return [] }
            return element.attributes.keys.sorted().compactMap { element.attributes[$0].map(Node.attribute) }
        case .current:
            return [node]
        case .parent:
            guard case .element(_, let parents) = node, let parent = parents.last else { return [] }
            return [.element(parent, parent: Array(parents.dropLast()))]
        }
    }

    private static func filter(_ nodes: [Node], _ predicates: [Predicate]) -> [Node] {
        var result = nodes
        for predicate in predicates {
            switch predicate {
            case .position(let position):
                result = position <= result.count ? [result[position - 1]] : []
            case .last:
                result = result.last.map { [$0] } ?? []
            case .hasAttribute(let name):
                result = result.filter { if case .element(let element, _) = $0 { element.attributes[name] != nil } else { false } }
            case .attributeEquals(let name, let value):
                result = result.filter { if case .element(let element, _) = $0 { element.attributes[name] == value } else { false } }
            case .childEquals(let name, let value):
                result = result.filter {
                    guard case .element(let element, _) = $0 else { return false }
                    return element.elements.contains { $0.name == name && $0.stringValue == value }
                }
            case .textEquals(let value):
                result = result.filter { $0.stringValue == value }
            }
        }
        return result
    }
}

/// XML views of request bodies, parsed once per request and only when a stub needs them.
enum XMLSupport {
    private final class Parsed {
        let root: XMLElementNode?
        init(_ root: XMLElementNode?) { self.root = root }
    }

    static func document(for view: RequestView) -> XMLElementNode? {
        if let cached = view.xmlCache as? Parsed { return cached.root }
        let parsed = Parsed(XMLElementNode.parse(view.request.body))
        view.xmlCache = parsed
        return parsed.root
    }

    static func xpathValues(_ expression: String, in view: RequestView) -> [String]? {
        guard let compiled = try? XPathExpression(expression), let document = document(for: view) else { return nil }
        return compiled.evaluate(document)
    }

    static func templateValue(for view: RequestView) throws(TemplateRenderError) -> TemplateValue {
        guard let document = document(for: view) else {
            throw TemplateRenderError("req.xml: the request body is not XML", isMissing: true)
        }
        return .from(document.templateJSON)
    }
}
