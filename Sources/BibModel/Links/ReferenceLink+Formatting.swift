extension ReferenceLink {
    /// The canonical link text.
    ///
    /// `bibread://open?refs=` and the papers as groups joined by `,`: each group is `[`, its
    /// references joined by `,`, then `]`; a reference is `KEY` (the whole paper), `KEY:N` or
    /// `KEY:N-M` (printed pages), or `KEY:%23N` or `KEY:%23N-M` (pages of the file: `#` escaped,
    /// as a URL's `#` would start its fragment). Then `&library=NAME` when a library is set and `&intention=NAME` when it is not
    /// `read`. Keys and the library name are percent-encoded (UTF-8) for every character that is
    /// not an RFC 3986 unreserved character or one of `! $ * ; @`, so `[ ] , : & # % ? = + /`,
    /// white space, non-ASCII text and controls are escaped, while the brackets, commas, colons
    /// and hyphens of the structure stay readable.
    ///
    /// `ReferenceLink.parse(link.url) == link` for every link that is valid: at least one and at
    /// most `maxPapers` papers, keys of 1…`maxKeyLength` characters without white space or
    /// controls, pages in 1…`maxPage`, a library name (when set) of 1…`maxLibraryLength`
    /// characters without controls, and a `url` no longer than `maxLength`.
    public var url: String {
        var text = "bibread://open?refs="
        for (index, paper) in papers.enumerated() {
            if index > 0 { text += "," }
            text += "["
            let key = PercentEncoding.encode(paper.key)
            if paper.pages.isEmpty {
                text += key
            } else {
                for (pageIndex, pages) in paper.pages.enumerated() {
                    if pageIndex > 0 { text += "," }
                    text += key + ":" + (paper.numbering == .physical ? "%23" : "") + String(pages.lowerBound)
                    if pages.upperBound != pages.lowerBound { text += "-" + String(pages.upperBound) }
                }
            }
            text += "]"
        }
        if let library {
            text += "&library=" + PercentEncoding.encode(library)
        }
        if intention != .read {
            text += "&intention=" + intention.rawValue
        }
        return text
    }
}
