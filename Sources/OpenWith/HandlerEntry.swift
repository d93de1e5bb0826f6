import BibModel

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

/// How bibread runs a handler.
public enum HandlerStyle: String, CaseIterable, Sendable, Equatable {
    /// A program with its own window (a PDF viewer, a browser): started detached, not waited for.
    case detached
    /// A program that takes over the terminal (a pager): the reader leaves the screen, runs it,
    /// waits, and comes back.
    case terminal
    /// A program that runs in the background and can be stopped (speech): the reader keeps it
    /// and a key stops it.
    case background
    /// A program that takes the value on standard input and ends (a clipboard tool): run and
    /// waited for, quietly.
    case quick
    /// Built in: the terminal's own clipboard, by the OSC 52 escape sequence (works over SSH).
    case osc52
}

/// One app of the "open with" registry.
public struct HandlerEntry: Sendable, Equatable {
    /// A short unique identifier (`zathura`, `copy-key-osc52`); config entries with the same id
    /// replace shipped ones.
    public var id: String
    /// The name shown in the menu (`Zathura at the page`).
    public var name: String
    /// The command as argv, with placeholders (`{file}`, `{page}`…) inside arguments; the first
    /// element is the program, looked up on `PATH` unless it is a path. Empty for `.osc52`.
    public var argv: [String]
    /// What to write to the program's standard input (a template), if anything.
    public var standardInput: String?
    /// The intentions it serves.
    public var intentions: [Intention]
    /// How it runs: detached, in the terminal, in the background, quickly, or as OSC 52.
    public var style: HandlerStyle
    /// The Debian package that provides it (`zathura`), for the install hint.
    public var package: String?
    /// Shown even when not installed (with its install hint instead of failing).
    public var alwaysShow: Bool
    /// An environment variable that, when set, names the program to run instead of `argv[0]`
    /// (`BROWSER`, `PAGER`); `argv[0]` is the fallback. Only its first word is used, never
    /// parsed by a shell (see ``Launcher/resolveProgram(of:path:environment:)``).
    public var programVariable: String?

    /// An entry; `argv[0]` is the program and may not contain placeholders.
    public init(id: String, name: String, argv: [String], standardInput: String? = nil, intentions: [Intention],
                style: HandlerStyle, package: String? = nil, alwaysShow: Bool = false,
                programVariable: String? = nil) {
        self.id = id
        self.name = name
        self.argv = argv
        self.standardInput = standardInput
        self.intentions = intentions
        self.style = style
        self.package = package
        self.alwaysShow = alwaysShow
        self.programVariable = programVariable
    }
}
