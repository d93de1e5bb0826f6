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
