import Foundation

/// Everything read from one .bib file.
public struct BibFile: Sendable {
    public let source: SourceFile
    /// References, in file order (document metadata such as `@bibdesk_info` is not among them).
    public internal(set) var entries: [Entry]
    /// `@comment` bodies, in file order (BibDesk and JabRef keep groups there).
    public let comments: [Block]
    /// `@preamble` values, in file order.
    public let preambles: [Block]
    /// The names of the `@string` macros this file defines, in order.
    public let strings: [String]
    /// BibDesk's `@bibdesk_info` document metadata, as raw field values.
    public let documentInfo: [String: String]
    /// Problems found while reading this file.
    public internal(set) var diagnostics: [Diagnostic]
}
