/// The values a handler's command may use, each named by a placeholder in its template.
public enum Placeholder: String, CaseIterable, Sendable {
    /// The PDF's absolute path.
    case file
    /// The page number (1-based) to open at.
    case page
    /// The reference's URL (its `url` field).
    case url
    /// The reference's DOI, as `https://doi.org/…` is built from it by templates.
    case doi
    /// The cite key.
    case key
    /// The reference's `bibread://open?…` link.
    case link
    /// The text of the page being read; an alias of ``pageText``, kept because `{text}` is the
    /// short spelling: a template's `{text}` is read as `{pagetext}` (see ``canonical``).
    case text
    /// The reference's BibTeX entry, as written in its file (spelled `{bibtex}`).
    case bibtex
    /// The text of the page being read (spelled `{pagetext}`; `{text}` means the same).
    case pageText = "pagetext"
}

extension Placeholder {
    /// The placeholder this one stands for: ``text`` stands for ``pageText``; each other for itself.
    public var canonical: Placeholder { self == .text ? .pageText : self }

    /// How it is written in a template: `{file}`, `{pagetext}`.
    public var spelling: String { "{\(rawValue)}" }
}
