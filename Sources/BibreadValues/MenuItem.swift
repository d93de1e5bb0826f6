/// One line of the "open with" menu (and of `bibread handlers`).
public struct MenuItem: Sendable, Equatable {
    /// The registry entry.
    public var entry: HandlerEntry
    /// The program that would run (absolute path); nil when it is not installed, and for OSC 52
    /// entries, which run none.
    public var executable: String?
    /// What to do to get it (`sudo apt install zathura`) when it is not installed; else nil.
    public var installHint: String?
    /// Whether choosing it can work now: its program is installed, or it is an OSC 52 entry.
    public var isRunnable: Bool

    /// A menu line.
    public init(entry: HandlerEntry, executable: String?, installHint: String?, isRunnable: Bool) {
        self.entry = entry
        self.executable = executable
        self.installHint = installHint
        self.isRunnable = isRunnable
    }
}
