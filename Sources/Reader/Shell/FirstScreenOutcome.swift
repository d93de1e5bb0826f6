/// What the reader does after `ReaderApp.Options.afterFirstScreen` returns.
public enum FirstScreenOutcome: Sendable {
    /// Go on to the event loop.
    case keepRunning
    /// Return at once, with status 0 (the terminal given back as on quitting).
    case stop
}
