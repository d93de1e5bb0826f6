/// One decoder or parser of untrusted input, as the fuzzer and the regression tests drive it.
///
/// `run(_:)` feeds the bytes through the same public API the program uses, then checks
/// invariants that must hold for any input (round trips, locations inside the input). A crash
/// is a bug; so is a thrown `InvariantViolation`.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// A whole .bib file: parsing, crossref, every displayed value, groups and search.
    case bibTeX = "bibtex"
    /// LaTeX to Unicode decoding of a field value.
    case laTeX = "latex"
    /// Splitting and displaying an author or editor list.
    case names
    /// BibDesk's static and smart groups, kept as XML plists in `@comment` blocks.
    case bibDeskGroups = "bibdesk-groups"
    /// JabRef's group tree, kept in `@comment{jabref-meta: grouping: …}`.
    case jabRefGroups = "jabref-groups"
    /// BibDesk's `Bdsk-File-N`: base64 of a binary plist or a keyed archive.
    case bdskFile = "bdsk-file"
    /// The search box's query language, then a search with it.
    case query
    /// A reading list as an XML or binary property list.
    case bookmarkPlist = "bookmark-plist"
    /// A reading list as JSON.
    case bookmarkJSON = "bookmark-json"
    /// A `bibread://bookmarks?` or `bibread://downloadbookmarks?` link.
    case bookmarkLink = "bookmark-link"
    /// A `bibread://open?refs=…` link or a bare `KEY:12-14` target.
    case referenceLink = "reference-link"
    /// A LaTeX `\cite…` or pandoc `[@key, p. 5]` citation.
    case citation

    /// The largest input worth trying: big enough for every feature, small enough to run fast.
    public var maxInputLength: Int {
        switch self {
        case .bibTeX, .bibDeskGroups, .jabRefGroups: return 16_384
        case .bookmarkPlist, .bookmarkJSON, .bookmarkLink: return 8_192
        case .laTeX, .names, .bdskFile, .query, .referenceLink, .citation: return 4_096
        }
    }

    /// Runs the target on `bytes`; throws `InvariantViolation` when a checked property fails.
    public func run(_ bytes: [UInt8]) throws {
        switch self {
        case .bibTeX: try BibTeXFuzzing.library(bytes)
        case .laTeX: BibTeXFuzzing.laTeX(bytes)
        case .names: BibTeXFuzzing.names(bytes)
        case .bibDeskGroups: try BibTeXFuzzing.bibDeskGroups(bytes)
        case .jabRefGroups: try BibTeXFuzzing.jabRefGroups(bytes)
        case .bdskFile: BibTeXFuzzing.bdskFile(bytes)
        case .query: try SearchFuzzing.query(bytes)
        case .bookmarkPlist, .bookmarkJSON: try ReadingListFuzzing.list(bytes)
        case .bookmarkLink: try ReadingListFuzzing.link(bytes)
        case .referenceLink: try LinkFuzzing.referenceLink(bytes)
        case .citation: try LinkFuzzing.citation(bytes)
        }
    }
}

/// Throws an `InvariantViolation` with `message` unless `condition` holds.
func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw InvariantViolation(message()) }
}
