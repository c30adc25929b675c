import Foundation

/// A string in a response: fixed, or a template rendered per request.
enum TextPlan: Sendable {
    case literal(String)
    case template(Template)

    init(_ value: TextValue) throws(TemplateSyntaxError) {
        switch value {
        case .literal(let text): self = .literal(text)
        case .template(let source, let vars):
            let template = try Template(source, variables: vars)
            // A template of constant `vars` only is a literal: it names the same file for
            // every request, so it may fall back to the working directory like other names.
            self = template.constantRendering.map(TextPlan.literal) ?? .template(template)
        }
    }

    var isStatic: Bool { if case .literal = self { true } else { false } }

    func render(_ input: TemplateContext?) throws(ResponseFailure) -> String {
        switch self {
        case .literal(let text): return text
        case .template(let template):
            guard let input else { throw ResponseFailure(message: "a template needs a request") }
            do throws(TemplateRenderError) {
                return try template.render(input)
            } catch {
                throw ResponseFailure(message: "template \(quoted(template.source)): \(error.message)")
            }
        }
    }
}

/// Where a response body comes from.
enum BodyPlan: Sendable {
    case bytes([UInt8], contentType: String)
    case template(Template, contentType: String)
    case file(FilePlan)
    /// A `mount`: the file for the request's path.
    case mount(MountPoint)

    var isStatic: Bool { if case .bytes = self { true } else { false } }

    /// Sets the draft's body; a large file served as it is streams from its descriptor.
    func apply(to draft: inout ResponseDraft, input: TemplateContext?) throws(ResponseFailure) {
        if case .file(let file) = self, let (streamed, contentType) = try file.openStreamed(input) {
            draft.setBody([], contentType: contentType)
            draft.streamedFile = streamed
            return
        }
        let (bytes, contentType) = try produce(input)
        draft.setBody(bytes, contentType: contentType)
    }

    func produce(_ input: TemplateContext?) throws(ResponseFailure) -> (bytes: [UInt8], contentType: String) {
        switch self {
        case .bytes(let bytes, let contentType):
            return (bytes, contentType)
        case .template(let template, let contentType):
            return (Array(try TextPlan.template(template).render(input).utf8), contentType)
        case .file(let file):
            return try file.produce(input)
        case .mount(let mount):
            guard let input else { throw ResponseFailure(message: "a mount needs a request") }
            return try mount.read(input.view.path)
        }
    }
}

/// A response `file`: opened per request (so edits show up), confined to its root, its bytes
/// and parsed template kept in `FileCache` while the file is unchanged.
struct FilePlan: Sendable {
    var name: TextPlan
    var charset: String?
    var rendersContent: Bool
    var vars: TemplateVariables
    var root: String
    /// Only literal names fall back to the working directory (moco's rule); names built from
    /// the request never do.
    var fallback: String?
    /// Where this plan's parsed template lives in the cache entry of its file.
    let templateSlot = FileCache.makeSlot()
    /// A literal name checked and split once, under the root and the working directory (nil when
    /// the name is built per request, or when the check failed: then it fails per request,
    /// with its message).
    private let literalTargets: (ConfinedFiles.Target, ConfinedFiles.Target?)?

    /// The working-directory candidate of a literal name, looked up before the root.
    var workingDirectoryTarget: ConfinedFiles.Target? { literalTargets?.1 }

    init(name: TextPlan, charset: String?, rendersContent: Bool, vars: TemplateVariables, root: String, fallback: String?) {
        self.name = name
        self.charset = charset
        self.rendersContent = rendersContent
        self.vars = vars
        self.root = root
        self.fallback = fallback
        if case .literal(let text) = name, let primary = try? ConfinedFiles.Target(text, root: root) {
            let second = fallback.flatMap { $0 == root ? nil : try? ConfinedFiles.Target(text, root: $0) }
            literalTargets = (primary, second)
        } else {
            literalTargets = nil
        }
    }

    /// The file's current bytes, fresh and confined.
    func read(named fileName: String) throws(ResponseFailure) -> FileCache.File {
        let result: Result<FileCache.File, ConfinedFiles.Failure>
        if let (primary, workingDirectory) = literalTargets, primary.name == fileName {
            // moco's rule: a file in the working directory wins (see `ConfinedFiles.locate`).
            if let workingDirectory, case .success(let file) = FileCache.shared.read(workingDirectory) {
                result = .success(file)
            } else {
                result = FileCache.shared.read(primary)
            }
        } else {
            result = FileCache.shared.read(fileName, root: root, fallback: name.isStatic ? fallback : nil)
        }
        switch result {
        case .success(let file): return file
        case .failure(let failure): throw ResponseFailure(message: failure.message)
        }
    }

    /// The file's bytes, or nil without reading them when it is large enough to stream
    /// (`StreamedFileBody.threshold`).
    func readUnlessStreamed(named fileName: String) throws(ResponseFailure) -> FileCache.File? {
        let limit = StreamedFileBody.threshold
        if let (primary, workingDirectory) = literalTargets, primary.name == fileName {
            if let workingDirectory, case .success(let file) = FileCache.shared.read(workingDirectory, below: limit) {
                return file
            }
            switch FileCache.shared.read(primary, below: limit) {
            case .success(let file): return file
            case .failure(let failure): throw ResponseFailure(message: failure.message)
            }
        }
        let file = try read(named: fileName)
        return file.bytes.count >= limit ? nil : file
    }

    /// The file opened for streaming when it is served as it is and large; nil to read it whole.
    func openStreamed(_ input: TemplateContext?) throws(ResponseFailure) -> (StreamedFileBody, contentType: String)? {
        guard !rendersContent else { return nil }
        let fileName = try name.render(input)
        // Opened as every served file is (confined, non-blocking, regular files only): a
        // path-then-open here once let a FIFO block the event loop.
        var opened = ConfinedFiles.open(fileName, root: root, realRoot: nil)
        if case .failure(let failure) = opened, failure.isNotFound, name.isStatic, let fallback, fallback != root {
            let second = ConfinedFiles.open(fileName, root: fallback, realRoot: nil)
            if case .success = second { opened = second }
        }
        guard case .success(let file) = opened, let streamed = StreamedFileBody.take(file) else { return nil }
        return (streamed, ContentTypes.forFile(named: fileName, charset: charset))
    }

    func produce(_ input: TemplateContext?) throws(ResponseFailure) -> (bytes: [UInt8], contentType: String) {
        let fileName = try name.render(input)
        let file = try read(named: fileName)
        let contentType = ContentTypes.forFile(named: fileName, charset: charset)
        guard rendersContent else { return (file.bytes, contentType) }
        let template: Template
        do throws(TemplateSyntaxError) {
            template = try FileCache.shared.derived(from: file, slot: templateSlot, cost: file.bytes.count * 2) {
                bytes throws(TemplateSyntaxError) in
                try Template(TextDecoding.decode(bytes, charset: charset), variables: vars)
            }
        } catch {
            throw ResponseFailure(message: "the template in \(quoted(fileName)): \(error.description)")
        }
        return (Array(try TextPlan.template(template).render(input).utf8), contentType)
    }
}

/// Decodes file content for templates with the file's declared charset.
enum TextDecoding {
    static func decode(_ bytes: [UInt8], charset: String?) -> String {
        switch charset?.lowercased() {
        case "iso-8859-1", "latin1", "latin-1", "iso8859-1":
            return String(bytes.map { Character(Unicode.Scalar($0)) })
        case "utf-16", "utf-16be", "utf-16le":
            let encoding: String.Encoding =
                charset?.lowercased() == "utf-16le" ? .utf16LittleEndian : (charset?.lowercased() == "utf-16be" ? .utf16BigEndian : .utf16)
            return String(data: Data(bytes), encoding: encoding) ?? String(decoding: bytes, as: UTF8.self)
        default:
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
