/// The grammar of `bibread://open?refs=[KEY:12-14,KEY:20],[KEY2]&library=NAME&intention=read`.
///
/// The scheme (`bibread`) and host (`open`, optionally followed by `/`) are compared without
/// regard to case; the query is required. The query is split on `&` first, then each parameter
/// on its first `=`; inside `refs` the structure (groups in brackets, references separated by
/// commas, the page part after the last `:`) is read on the text as written, and only then is
/// each key and value percent-decoded, so an escaped `%5D`, `%2C` or `%3A` is part of a key.
/// `+` is a literal plus sign. White space and `#` are not allowed anywhere in a link.
enum LinkSyntax {
    /// The parameters a link may have.
    private enum Parameter: String {
        case refs, library, intention
    }

    /// Whether `text` is meant as a `bibread:` link (its scheme, in any case).
    static func isLink(_ text: ScannedText) -> Bool {
        text.hasPrefix("bibread:")
    }

    /// Whether `text` starts like a URL of some other scheme (`http://…`): the length of its
    /// scheme, or nil.
    static func otherSchemeLength(_ text: ScannedText) -> Int? {
        guard let first = text.character(at: 0), first.isASCII, first.isLetter else { return nil }
        var index = 1
        while let character = text.character(at: index), character.isASCII,
              character.isLetter || character.isNumber || character == "+" || character == "." || character == "-" {
            index += 1
        }
        return text.hasPrefix("://", at: index) ? index : nil
    }

    /// Reads the link in `text`, which starts with `bibread:`.
    static func parse(_ text: ScannedText) throws -> ReferenceLink {
        let scheme = "bibread:".count
        guard text.hasPrefix("//", at: scheme) else {
            throw text.error("expected '//' after 'bibread:' (links read bibread://open?refs=…)", at: scheme)
        }
        if let bad = text.characters.firstIndex(where: { $0.isWhitespace || $0 == "#" }) {
            if text[bad] == "#" {
                throw text.error("a link cannot contain '#' (percent-encode it as %23)", at: bad)
            }
            throw text.error("a link cannot contain white space (percent-encode spaces as %20; one link at a time)", at: bad)
        }
        let hostStart = scheme + 2
        let question = text.firstIndex(of: "?", in: hostStart..<text.count)
        var hostEnd = question ?? text.count
        if hostEnd > hostStart, text[hostEnd - 1] == "/" { hostEnd -= 1 }
        guard text.string(hostStart..<hostEnd).lowercased() == "open" else {
            let found = hostEnd > hostStart ? "found \(text.quoted(hostStart..<hostEnd))" : "found none"
            throw text.error("expected the host 'open' after bibread:// (\(found))", at: hostStart)
        }
        guard let question else {
            throw text.error("the link has no query: expected ?refs=… after bibread://open", at: text.count)
        }
        return try parseQuery(text, (question + 1)..<text.count)
    }

    /// Reads the parameters in `text[query]`.
    private static func parseQuery(_ text: ScannedText, _ query: Range<Int>) throws -> ReferenceLink {
        var papers: [PaperReference]?
        var library: String?
        var intention: Intention?
        var start = query.lowerBound
        while true {
            let end = text.firstIndex(of: "&", in: start..<query.upperBound) ?? query.upperBound
            try parseParameter(text, start..<end, papers: &papers, library: &library, intention: &intention)
            guard end < query.upperBound else { break }
            start = end + 1
        }
        guard let papers else {
            throw text.error("the link has no refs parameter (refs=[KEY:PAGE],…)", at: query.lowerBound)
        }
        return ReferenceLink(papers: papers, library: library, intention: intention ?? .read)
    }

    /// Reads one `name=value` parameter into the matching variable.
    private static func parseParameter(_ text: ScannedText, _ range: Range<Int>, papers: inout [PaperReference]?,
                                       library: inout String?, intention: inout Intention?) throws {
        guard !range.isEmpty else {
            throw text.error("empty parameter: expected name=value", at: range.lowerBound)
        }
        guard let equals = text.firstIndex(of: "=", in: range) else {
            let name = text.shown(range)
            throw text.error("parameter '\(name)' has no value (expected \(name)=…)", at: range.lowerBound)
        }
        guard equals > range.lowerBound else {
            throw text.error("a parameter needs a name before '='", at: equals)
        }
        let nameRange = range.lowerBound..<equals
        let value = (equals + 1)..<range.upperBound
        guard let parameter = Parameter(rawValue: text.string(nameRange)) else {
            throw text.error("unknown parameter \(text.quoted(nameRange)) (expected refs, library or intention)",
                             at: range.lowerBound)
        }
        let seen: Bool
        switch parameter {
        case .refs: seen = papers != nil
        case .library: seen = library != nil
        case .intention: seen = intention != nil
        }
        guard !seen else {
            throw text.error("parameter '\(parameter.rawValue)' is given twice", at: range.lowerBound)
        }
        switch parameter {
        case .refs:
            papers = try parseRefs(text, value)
        case .library:
            library = try parseLibrary(text, value)
        case .intention:
            let decoded = try PercentEncoding.decode(text, value).string
            guard let known = Intention(rawValue: decoded) else {
                let shown = decoded.count > 24 ? String(decoded.prefix(24)) + "…" : decoded
                throw text.error("unknown intention '\(shown)' (expected read, study, cite or listen)", at: value.lowerBound)
            }
            intention = known
        }
    }

    /// Reads a library name: percent-decoded, not empty, at most `maxLibraryLength` characters, no controls.
    private static func parseLibrary(_ text: ScannedText, _ range: Range<Int>) throws -> String {
        let decoded = try PercentEncoding.decode(text, range)
        let name = decoded.string
        guard !name.isEmpty else {
            throw text.error("the library name is empty (leave library out for the default library)", at: range.lowerBound)
        }
        if let bad = decoded.scalars.indices.first(where: { decoded.scalars[$0].properties.generalCategory == .control }) {
            throw ReferenceLinkError(
                message: "a library name cannot contain control characters (found \(ReferenceSyntax.describe(decoded.scalars[bad])))",
                column: decoded.columns[bad])
        }
        guard name.count <= ReferenceLink.maxLibraryLength else {
            throw text.error("a library name is at most \(ReferenceLink.maxLibraryLength) characters (found \(name.count))",
                             at: range.lowerBound)
        }
        return name
    }

    /// Reads `refs`: bracketed groups separated by commas, one paper each.
    private static func parseRefs(_ text: ScannedText, _ range: Range<Int>) throws -> [PaperReference] {
        guard !range.isEmpty else {
            throw text.error("refs names no papers (expected refs=[KEY:PAGE],…)", at: range.lowerBound)
        }
        var papers: [PaperReference] = []
        var index = range.lowerBound
        while true {
            guard index < range.upperBound, text[index] == "[" else {
                let found = index < range.upperBound ? "found \(text.quoted(index..<(index + 1)))" : "found the end"
                let message = papers.isEmpty
                    ? "refs is a list of groups in brackets: expected '[' (\(found))"
                    : "expected '[' to open the next group after ',' (\(found))"
                throw text.error(message, at: index)
            }
            guard papers.count < ReferenceLink.maxPapers else {
                throw text.error("a link names at most \(ReferenceLink.maxPapers) papers", at: index)
            }
            let open = index
            var close = open + 1
            while close < range.upperBound, text[close] != "]" {
                if text[close] == "[" {
                    throw text.error("'[' inside a group (percent-encode it as %5B in keys)", at: close)
                }
                close += 1
            }
            guard close < range.upperBound else {
                throw text.error("this '[' has no matching ']'", at: open)
            }
            guard close > open + 1 else {
                throw text.error("empty group: a group names one paper", at: open)
            }
            papers.append(try parseGroup(text, (open + 1)..<close))
            index = close + 1
            guard index < range.upperBound else { break }
            guard text[index] == "," else {
                throw text.error("expected ',' or the end of refs after ']' (found \(text.quoted(index..<(index + 1))))", at: index)
            }
            index += 1
        }
        return papers
    }

    /// Reads one group: comma-separated references to one paper, their pages merged in order.
    private static func parseGroup(_ text: ScannedText, _ range: Range<Int>) throws -> PaperReference {
        var paper: PaperReference?
        var start = range.lowerBound
        while true {
            let end = text.firstIndex(of: ",", in: start..<range.upperBound) ?? range.upperBound
            guard end > start else {
                throw text.error("empty reference in a group (expected KEY or KEY:PAGE)", at: start)
            }
            let entry = try ReferenceSyntax.entry(in: text, start..<end, decoding: true)
            if let first = paper {
                guard first.key.lowercased() == entry.key.lowercased() else {
                    throw text.error("a group holds references to one paper; found \(first.key) and \(entry.key)",
                                     at: entry.keyIndex)
                }
            } else {
                paper = PaperReference(key: entry.key)
            }
            if let pages = entry.pages {
                if paper?.pages.isEmpty == false, paper?.numbering != entry.numbering {
                    throw text.error("a group's pages are all printed pages or pages of the file (%23N): write a group for each",
                                     at: entry.keyIndex)
                }
                paper?.numbering = entry.numbering
                paper?.pages.append(pages)
            }
            guard end < range.upperBound else { break }
            start = end + 1
        }
        guard let paper else {
            throw text.error("empty group: a group names one paper", at: range.lowerBound)
        }
        return paper
    }
}
