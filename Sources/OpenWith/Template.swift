import BibreadValues

/// A parsed argv element or standard-input template: `--page={page}` is the literal
/// `--page=` then the placeholder `page`. `{{` and `}}` are literal braces; `{text}` is read as
/// `{pagetext}`.
struct Template: Equatable, Sendable {
    var segments: [TemplateSegment]

    /// Parses `text`.
    init(parsing text: String) throws(TemplateError) {
        var segments: [TemplateSegment] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "{" {
                if next < text.endIndex, text[next] == "{" {
                    literal.append("{")
                    index = text.index(after: next)
                    continue
                }
                guard let close = text[next...].firstIndex(where: { $0 == "}" || $0 == "{" }), text[close] == "}" else {
                    throw .unclosedBrace
                }
                let name = String(text[next..<close])
                guard let placeholder = Placeholder(rawValue: name) else { throw .unknownPlaceholder(name) }
                if !literal.isEmpty { segments.append(.literal(literal)) }
                literal = ""
                segments.append(.placeholder(placeholder.canonical))
                index = text.index(after: close)
            } else if character == "}" {
                guard next < text.endIndex, text[next] == "}" else { throw .unopenedBrace }
                literal.append("}")
                index = text.index(after: next)
            } else {
                literal.append(character)
                index = next
            }
        }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        self.segments = segments
    }

    /// The placeholders it uses.
    var placeholders: Set<Placeholder> {
        Set(segments.compactMap { segment in
            if case .placeholder(let placeholder) = segment { return placeholder }
            return nil
        })
    }
}

extension HandlerEntry {
    /// The placeholders its argv and standard input use (canonical: `{text}` counts as
    /// ``Placeholder/pageText``); a malformed template contributes none.
    public var placeholders: Set<Placeholder> {
        var used = Set<Placeholder>()
        for text in argv + [standardInput].compactMap({ $0 }) {
            if let template = try? Template(parsing: text) { used.formUnion(template.placeholders) }
        }
        return used
    }
}
