/// The scanner's tokens, as in the YAML 1.2 productions that libyaml's design popularised: block
/// structure becomes explicit START/END tokens so the parser never looks at indentation.
struct YAMLToken {
    enum Kind: Equatable {
        case streamStart
        case streamEnd
        case versionDirective(major: Int, minor: Int)
        case tagDirective(handle: String, prefix: String)
        case documentStart
        case documentEnd
        case blockSequenceStart
        case blockMappingStart
        case blockEnd
        case flowSequenceStart
        case flowSequenceEnd
        case flowMappingStart
        case flowMappingEnd
        case blockEntry
        case flowEntry
        case key
        case value
        case alias(String)
        case anchor(String)
        case tag(handle: String, suffix: String)
        case scalar(String, YAMLScalarStyle)
    }

    var kind: Kind
    var start: YAMLMark
    var end: YAMLMark

    /// How the token is named in "expected …, found …" messages.
    var description: String {
        switch kind {
        case .streamStart: "the start of the stream"
        case .streamEnd: "the end of the stream"
        case .versionDirective: "a %YAML directive"
        case .tagDirective: "a %TAG directive"
        case .documentStart: "'---'"
        case .documentEnd: "'...'"
        case .blockSequenceStart: "a block sequence"
        case .blockMappingStart: "a block mapping"
        case .blockEnd: "the end of a block collection"
        case .flowSequenceStart: "'['"
        case .flowSequenceEnd: "']'"
        case .flowMappingStart: "'{'"
        case .flowMappingEnd: "'}'"
        case .blockEntry: "'-'"
        case .flowEntry: "','"
        case .key: "'?' (a mapping key)"
        case .value: "':'"
        case .alias(let name): "the alias '*\(name)'"
        case .anchor(let name): "the anchor '&\(name)'"
        case .tag(let handle, let suffix): "the tag '\(handle)\(suffix)'"
        case .scalar: "a scalar"
        }
    }
}

/// How a scalar was written; plain scalars are the only ones the core schema resolves.
public enum YAMLScalarStyle: Sendable, Hashable {
    case plain
    case singleQuoted
    case doubleQuoted
    case literal
    case folded
}
