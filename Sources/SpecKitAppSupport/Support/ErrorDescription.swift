import Foundation

/// How SpecKit words a thrown error: `error "The network is down" (APIError)`.
/// Shared with SpecKit so expectations and decoding failures read the same.
package enum ErrorDescription {
    package static func describe(_ error: Error) -> String {
        let type = String(describing: Swift.type(of: error))
        let text: String
        if let localized = error as? LocalizedError, let description = localized.errorDescription {
            text = description
        } else {
            text = String(describing: error)
        }
        return "error \"\(text)\" (\(type))"
    }
}

/// File paths as a reader wants them in a message: relative to the current directory when below it.
package enum DisplayPath {
    package static func relativeToCurrentDirectory(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        let prefix = cwd.hasSuffix("/") ? cwd : cwd + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
