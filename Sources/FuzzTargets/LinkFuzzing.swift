import BibModel

/// Reference links, targets and citations: what parses must format and parse back the same.
enum LinkFuzzing {
    static func referenceLink(_ bytes: [UInt8]) throws {
        let text = String(decoding: bytes, as: UTF8.self)
        try checkRoundTrip(of: text)
        if let target = try? ReferenceLink.parseTarget(text) {
            try checkRoundTrip(ReferenceLink(papers: [target]))
        }
    }

    /// Citations: the text as given, and as the inside of a LaTeX `\cite{…}` and a pandoc `[…]`.
    static func citation(_ bytes: [UInt8]) throws {
        let text = String(decoding: bytes, as: UTF8.self)
        for form in [text, "\\cite{\(text)}", "[\(text)]"] {
            try checkRoundTrip(of: form)
        }
    }

    private static func checkRoundTrip(of text: String) throws {
        do {
            try checkRoundTrip(try ReferenceLink.parse(text))
        } catch let error as ReferenceLinkError {
            _ = error.description
        }
    }

    private static func checkRoundTrip(_ link: ReferenceLink) throws {
        let url = link.url
        // Percent-encoding can make the link longer than the longest text read: not a bug.
        guard url.count <= ReferenceLink.maxLength else { return }
        let reread: ReferenceLink
        do {
            reread = try ReferenceLink.parse(url)
        } catch {
            throw InvariantViolation("the link \(url) made from \(link) does not read back: \(error)")
        }
        try check(reread == link, "the link \(url) reads back as \(reread), not \(link)")
    }
}
