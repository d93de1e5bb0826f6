import BibModel

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
