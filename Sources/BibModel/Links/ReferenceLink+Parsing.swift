extension ReferenceLink {
    /// Reads a bibread://open link, a bare KEY[:PAGES], a pandoc citation or a LaTeX \cite.
    ///
    /// White space around `text` is ignored. What it is, is decided by how it starts:
    /// `bibread:` (any case) is a link (see `url` for the form); another `scheme://` is an
    /// error; `\` is a LaTeX citation (`\cite[p.~5]{key1,key2}`); `[` or `@` is a pandoc
    /// citation (`[see @knuth84, pp. 33-35; @lamport94]`, `@knuth84`); anything else is a bare
    /// target as `parseTarget(_:)` reads it. Citations and targets give a link with no library
    /// and the intention `read`.
    ///
    /// Throws `ReferenceLinkError` with the column of the offending part in `text` as given.
    public static func parse(_ text: String) throws -> ReferenceLink {
        let scanned = try ScannedText(trimming: text, limit: maxLength)
        guard !scanned.characters.isEmpty else {
            throw scanned.error("nothing to read: expected a link, a cite key or a citation", at: 0)
        }
        if LinkSyntax.isLink(scanned) {
            return try LinkSyntax.parse(scanned)
        }
        if CitationSyntax.isLaTeX(scanned) {
            return ReferenceLink(papers: try CitationSyntax.parseLaTeX(scanned))
        }
        if CitationSyntax.isPandoc(scanned) {
            return ReferenceLink(papers: try CitationSyntax.parsePandoc(scanned))
        }
        return ReferenceLink(papers: [try target(in: scanned)])
    }

    /// Reads a single target as written on the command line: KEY, KEY:12, KEY:12-14 (used by `bibread link KEY:12-14…`).
    ///
    /// The numbers are printed pages (page labels); `KEY:#12` and `KEY:#12-14` are pages of the
    /// file, counted from 1.
    ///
    /// Also `KEY:12-KEY:14` (the same key twice). The page part follows the LAST colon, so
    /// `Knuth:1984:TeXbook:12` is page 12 of `Knuth:1984:TeXbook`, while `Knuth:1984` is page 1984
    /// of `Knuth`: a key that itself ends in `:digits` cannot be written as a bare target (use a
    /// link with the colon escaped as `%3A`). Nothing is percent-decoded. A target has no white
    /// space and no comma, and is not a link or a citation (those are read by `parse(_:)`).
    public static func parseTarget(_ text: String) throws -> PaperReference {
        let scanned = try ScannedText(trimming: text, limit: maxLength)
        guard !scanned.characters.isEmpty else {
            throw scanned.error("nothing to read: expected KEY, KEY:12 or KEY:12-14", at: 0)
        }
        if LinkSyntax.isLink(scanned) || LinkSyntax.otherSchemeLength(scanned) != nil {
            throw scanned.error("expected a target KEY, KEY:12 or KEY:12-14, not a link", at: 0)
        }
        if CitationSyntax.isLaTeX(scanned) || CitationSyntax.isPandoc(scanned) {
            throw scanned.error("expected a target KEY, KEY:12 or KEY:12-14, not a citation", at: 0)
        }
        return try target(in: scanned)
    }

    /// Reads the bare target that is all of `text`.
    private static func target(in text: ScannedText) throws -> PaperReference {
        if let scheme = LinkSyntax.otherSchemeLength(text) {
            throw text.error("not a bibread link: expected bibread://open?refs=… (found \(text.quoted(0..<(scheme + 3))))", at: 0)
        }
        if let space = text.characters.firstIndex(where: { $0.isWhitespace }) {
            throw text.error("a target cannot contain white space: write KEY, KEY:12 or KEY:12-14", at: space)
        }
        if let comma = text.characters.firstIndex(of: ",") {
            throw text.error("a target names one reference: write KEY, KEY:12 or KEY:12-14 (use a link for several)", at: comma)
        }
        let entry = try ReferenceSyntax.entry(in: text, 0..<text.count, decoding: false)
        return PaperReference(key: entry.key, pages: entry.pages.map { [$0] } ?? [], numbering: entry.numbering)
    }
}
