/// A key press as the reader understands it, independent of curses.
public enum Key: Hashable, Sendable, CustomStringConvertible {
    case character(Character)
    /// Ctrl with a letter (`C-d`); Ctrl-C arrives as `.control("c")`.
    case control(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, tab, backTab, backspace, delete, insert
    case function(Int)

    /// The key as written in config.toml and shown in help: `j`, `Down`, `C-d`, `S-Tab`, `F1`.
    public var description: String {
        switch self {
        case .character(" "): return "Space"
        case .character(let character): return String(character)
        case .control(let letter): return "C-\(letter)"
        case .up: return "Up"
        case .down: return "Down"
        case .left: return "Left"
        case .right: return "Right"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .home: return "Home"
        case .end: return "End"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .tab: return "Tab"
        case .backTab: return "S-Tab"
        case .backspace: return "Backspace"
        case .delete: return "Delete"
        case .insert: return "Insert"
        case .function(let number): return "F\(number)"
        }
    }

    private static let named: [String: Key] = [
        "space": .character(" "), "up": .up, "down": .down, "left": .left, "right": .right,
        "pgup": .pageUp, "pageup": .pageUp, "pgdn": .pageDown, "pagedown": .pageDown,
        "home": .home, "end": .end, "enter": .enter, "return": .enter, "esc": .escape, "escape": .escape,
        "tab": .tab, "s-tab": .backTab, "backtab": .backTab, "backspace": .backspace, "bs": .backspace,
        "delete": .delete, "del": .delete, "insert": .insert,
    ]

    /// Reads a key written as in config.toml; nil when it names no key.
    public init?(name: String) {
        if name.count == 1, let character = name.first {
            self = .character(character)
            return
        }
        let lowered = name.lowercased()
        if let key = Key.named[lowered] {
            self = key
            return
        }
        if lowered.hasPrefix("c-"), lowered.count == 3, let letter = lowered.last, letter.isLetter, letter.isASCII {
            self = .control(letter)
            return
        }
        if lowered.hasPrefix("f"), let number = Int(lowered.dropFirst()), (1...24).contains(number) {
            self = .function(number)
            return
        }
        return nil
    }
}
