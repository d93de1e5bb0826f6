import ArgumentParser

/// Exit codes shared by the commands (documented in the README).
enum ExitStatus {
    /// `check` found errors, or a key was not found.
    static let problems = ExitCode(1)
    /// A file could not be read as a library at all.
    static let unreadable = ExitCode(2)
    /// Another process is doing the same work (a sync of the remote, with `--no-wait`): try
    /// again later (sysexits' EX_TEMPFAIL).
    static let busy = ExitCode(75)
}
