/// The parts of a locale identifier, whichever separator it uses: `pt-BR`, `pt_br` and `PT_BR`
/// all give `["pt", "br"]`. The language tables, plural rules and text direction all look a
/// locale up by its first part.
enum LocaleSubtags {
    /// The identifier's parts, lowercased.
    static func of(_ identifier: String) -> [String] {
        identifier.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).map { String($0) }
    }

    /// The language part (`de` for `de_DE`); empty for an empty identifier.
    static func language(of identifier: String) -> String {
        of(identifier).first ?? ""
    }
}
