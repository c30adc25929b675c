/// moco's `record`: store the whole request under a group and identifier, for `replay`.
///
/// ```swift
/// RecordDefinition(group: "push", identifier: .template("${req.queries['device']}"), tape: "push-tape.json")
/// ```
public struct RecordDefinition: Sendable, Hashable {
    /// nil: the default group.
    public var group: String?
    /// Which slot in the group; defaults to the group's name. May be a template.
    public var identifier: TextValue?
    /// A JSON file the group is kept in, so recordings survive a restart.
    public var tape: String?

    public init(group: String? = nil, identifier: TextValue? = nil, tape: String? = nil) {
        self.group = group
        self.identifier = identifier
        self.tape = tape
    }
}

/// moco's `replay`: answer from the last request recorded in the same group and identifier.
///
/// ```swift
/// ReplayDefinition(record: RecordDefinition(group: "push"), modifier: .template(.template("sent: ${req.content}")))
/// ```
public struct ReplayDefinition: Sendable, Hashable {
    public enum Modifier: Sendable, Hashable {
        /// Rendered against the recorded request (the default is `${req.content}`).
        case template(TextValue)
        /// Any response, its templates rendered against the recorded request.
        indirect case response(ResponseDefinition)
    }

    public var record: RecordDefinition
    public var modifier: Modifier?

    public init(record: RecordDefinition, modifier: Modifier? = nil) {
        self.record = record
        self.modifier = modifier
    }
}
