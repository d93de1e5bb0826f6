import Foundation

/// What the terminal bibread writes to is, as far as escape sequences must be wrapped.
public enum TerminalKind: Sendable, Equatable {
    /// A terminal emulator, directly (or over SSH).
    case plain
    /// Inside tmux: sequences go to tmux and through its DCS passthrough.
    case tmux
    /// Inside GNU screen: sequences go in a DCS string.
    case screen

    /// tmux when `TMUX` is set; screen when `TERM` starts with `screen` and `TMUX` is not set
    /// (tmux also sets `TERM=screen…` by default); else plain.
    public static func detect(environment: [String: String]) -> TerminalKind {
        if let tmux = environment["TMUX"], !tmux.isEmpty { return .tmux }
        if environment["TERM"]?.hasPrefix("screen") == true { return .screen }
        return .plain
    }
}
