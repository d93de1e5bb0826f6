/// Field names bibread's own logic looks up (citation lines, names, years, links).
///
/// Each field is tagged with one of these once, when its name is first read, so that looking
/// a field up compares one byte instead of a string.
public enum WellKnownField: UInt8, Sendable, CaseIterable {
    case other = 0
    case author, editor, title, year, date, journal, journaltitle, volume, number, issue, pages
    case booktitle, maintitle, publisher, organization, howpublished, school, institution, type
    case edition, note, url, doi, eprint, archiveprefix, eprinttype, crossref

    /// The field's name as written in lower case in a .bib file.
    public var name: String { String(describing: self) }

    private static let byName: [String: WellKnownField] = Dictionary(
        uniqueKeysWithValues: allCases.filter { $0 != .other }.map { ($0.name, $0) })

    /// The well-known field with this lower-case name, or `.other`.
    public init(lowercaseName name: String) {
        self = WellKnownField.byName[name] ?? .other
    }
}
