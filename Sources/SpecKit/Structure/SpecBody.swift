/// A block of spec code as written by the author: run inline, on the main actor.
enum SpecBody {
    case sync(@MainActor () throws -> Void)
    case async(@MainActor () async throws -> Void)

    var isAsync: Bool {
        if case .async = self { return true }
        return false
    }
}

/// Where in a spec file something was declared.
struct CallSite: Sendable, Equatable {
    let file: StaticString
    let line: UInt

    var path: String { "\(file)" }

    static func == (lhs: CallSite, rhs: CallSite) -> Bool {
        lhs.path == rhs.path && lhs.line == rhs.line
    }
}
