import CCurses
import Foundation

/// Why the full-screen interface could not start.
public enum TerminalError: Error, CustomStringConvertible {
    case notATerminal
    case cannotInitialize(term: String)

    public var description: String {
        switch self {
        case .notATerminal:
            return "the full-screen reader needs a terminal; use 'bibread list' for plain output"
        case .cannotInitialize(let term):
            return "cannot use the terminal type '\(term)' (is TERM set correctly?)"
        }
    }
}
