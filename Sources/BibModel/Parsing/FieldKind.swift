
/// What a field name means to bibread, worked out once per distinct name.
public struct FieldKind: Sendable, Hashable {
    public let known: WellKnownField
    private let flags: UInt8

    private static let verbatimFlag: UInt8 = 1
    private static let bibDeskFileFlag: UInt8 = 2
    private static let bibDeskURLFlag: UInt8 = 4
    private static let fileListFlag: UInt8 = 8
    private static let bookkeepingFlag: UInt8 = 16

    /// Classifies a lower-case field name.
    public init(lowercaseName name: String) {
        known = WellKnownField(lowercaseName: name)
        var flags: UInt8 = 0
        switch name {
        case "url", "doi", "eprint", "isbn", "issn", "crossref", "xref", "urldate", "date-added", "date-modified":
            flags |= FieldKind.verbatimFlag
        case "file", "pdf", "local-url", "localfile":
            flags |= FieldKind.verbatimFlag | FieldKind.fileListFlag
        default:
            if name.hasPrefix("bdsk-") { flags |= FieldKind.verbatimFlag }
            if name.hasPrefix("bdsk-file-") { flags |= FieldKind.bibDeskFileFlag }
            if name.hasPrefix("bdsk-url-") { flags |= FieldKind.bibDeskURLFlag }
        }
        if CrossrefResolver.notInherited.contains(name) || name.hasPrefix("bdsk-") { flags |= FieldKind.bookkeepingFlag }
        self.flags = flags
    }

    /// Paths, URLs and identifiers: only unescaped, never typeset (`--` in a URL stays `--`).
    public var isVerbatim: Bool { flags & FieldKind.verbatimFlag != 0 }
    /// BibDesk's `Bdsk-File-N`: base64 of a binary property list.
    public var isBibDeskFile: Bool { flags & FieldKind.bibDeskFileFlag != 0 }
    /// BibDesk's `Bdsk-Url-N`.
    public var isBibDeskURL: Bool { flags & FieldKind.bibDeskURLFlag != 0 }
    /// `file`, `pdf`, `local-url`, `localfile`: JabRef, Zotero, Mendeley or plain file lists.
    public var isFileList: Bool { flags & FieldKind.fileListFlag != 0 }
    /// Describes the record itself (linked files, dates, read flags, identifiers): never
    /// inherited through `crossref`.
    public var isBookkeeping: Bool { flags & FieldKind.bookkeepingFlag != 0 }
}
