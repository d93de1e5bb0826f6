import CCurses
import Foundation
import ReaderCore

/// The curses backend: draws screen buffers (only the cells that changed) and reads keys.
/// Everything else lives in the pure state, update and render.
public final class CursesScreen {
    private var previous: ScreenBuffer?
    private var pairs: [StyleRole: (pair: Int16, attributes: UInt32)] = [:]
    private let useColor: Bool
    private var isOpen = false

    /// Starts full-screen mode. `color: false` (or `NO_COLOR`) gives the monochrome look.
    public init(color: Bool) throws {
        guard isatty(0) == 1, isatty(1) == 1 else { throw TerminalError.notATerminal }
        setlocale(LC_ALL, "")
        TerminalGuard.saveModes(descriptor: 1)
        let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
        guard ccurses_new_terminal() != nil else { throw TerminalError.cannotInitialize(term: term) }
        isOpen = true
        raw()
        noecho()
        nonl()
        _ = ccurses_keypad(1)
        _ = ccurses_nodelay(1)
        set_escdelay(25)
        curs_set(0)
        mousemask(ccurses_mouse_events(), nil)
        mouseinterval(200)
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        useColor = color && !noColor && has_colors()
        if useColor {
            start_color()
            use_default_colors()
        }
        setUpStyles()
        TerminalGuard.setRestoreSequence(CursesScreen.restoreSequence())
        TerminalGuard.install()
    }

    deinit { close() }

    /// Leaves full-screen mode (idempotent).
    public func close() {
        guard isOpen else { return }
        isOpen = false
        mousemask(0, nil)
        curs_set(1)
        endwin()
        TerminalGuard.uninstall()
    }

    /// The terminal's size in cells.
    public var size: (width: Int, height: Int) {
        let window = ccurses_stdscr()
        return (Int(ccurses_columns(window)), Int(ccurses_lines(window)))
    }

    /// Draws a buffer: only cells that differ from the last one drawn are sent to curses
    /// (which in turn sends only what differs from the terminal).
    public func draw(_ buffer: ScreenBuffer) {
        if previous == nil || previous?.width != buffer.width || previous?.height != buffer.height {
            _ = ccurses_erase()
        }
        let changed = buffer.changedCells(since: previous)
        var wide = [wchar_t](repeating: 0, count: 6)
        for index in changed {
            let cell = buffer.cells[index]
            if cell.isContinuation { continue }
            let y = Int32(index / buffer.width), x = Int32(index % buffer.width)
            var count = 0
            for scalar in cell.text.unicodeScalars where count < 5 {
                wide[count] = wchar_t(bitPattern: scalar.value)
                count += 1
            }
            if count == 0 {
                wide[0] = 32
                count = 1
            }
            wide[count] = 0
            let (pair, attributes) = look(of: cell.style)
            _ = ccurses_put_cell(y, x, wide, attributes, pair)
        }
        if let cursor = buffer.cursor {
            curs_set(1)
            _ = ccurses_move(Int32(cursor.y), Int32(cursor.x))
        } else {
            curs_set(0)
        }
        TerminalGuard.sendingFrame { _ = ccurses_refresh() }
        previous = buffer
    }

    /// Ctrl-Z: gives the terminal back to the shell and stops; on `fg`, takes it again and
    /// repaints everything.
    public func suspend() {
        def_prog_mode()
        endwin()
        Glibc.signal(SIGTSTP, SIG_DFL)
        kill(0, SIGTSTP)
        // Stopped here until the shell continues us.
        reset_prog_mode()
        invalidate()
    }

    /// Gives the terminal to `body` (a pager the user asked for), then takes it back and
    /// repaints everything.
    public func runOutside(_ body: () -> Void) {
        def_prog_mode()
        endwin()
        TerminalGuard.whileOutside(body)
        reset_prog_mode()
        invalidate()
    }

    /// Forgets what was drawn, so the next draw repaints every cell (Ctrl-L, resize).
    public func invalidate() {
        previous = nil
        _ = ccurses_clear_ok(1)
    }

    /// The next input, or nil when none is waiting.
    public func nextInput() -> Event? {
        var character: wint_t = 0
        let result = ccurses_get_wch(&character)
        if result == ccurses_err() { return nil }
        if result == ccurses_key_code_yes() { return functionKey(Int32(character)) }
        let value = UInt32(character)
        switch value {
        case 9: return .key(.tab)
        case 10, 13: return .key(.enter)
        case 27: return .key(.escape)
        case 8, 127: return .key(.backspace)
        case 0: return .key(.control("@"))
        case 1...26: return .key(.control(Character(Unicode.Scalar(value + 96) ?? "a")))
        default:
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return .key(.character(Character(scalar)))
        }
    }

    private func functionKey(_ code: Int32) -> Event? {
        switch code {
        case KEY_UP: return .key(.up)
        case KEY_DOWN: return .key(.down)
        case KEY_LEFT: return .key(.left)
        case KEY_RIGHT: return .key(.right)
        case KEY_NPAGE: return .key(.pageDown)
        case KEY_PPAGE: return .key(.pageUp)
        case KEY_HOME: return .key(.home)
        case KEY_END: return .key(.end)
        case KEY_BTAB: return .key(.backTab)
        case KEY_BACKSPACE: return .key(.backspace)
        case KEY_DC: return .key(.delete)
        case KEY_IC: return .key(.insert)
        case KEY_ENTER: return .key(.enter)
        case ccurses_key_resize():
            let size = self.size
            invalidate()
            return .resize(width: size.width, height: size.height)
        case ccurses_key_mouse():
            var event = MEVENT()
            guard getmouse(&event) == ccurses_ok() else { return nil }
            let state = event.bstate
            let kind: MouseEvent.Kind
            if ccurses_is_wheel_up(state) != 0 {
                kind = .wheelUp
            } else if ccurses_is_wheel_down(state) != 0 {
                kind = .wheelDown
            } else if ccurses_is_double_click(state) != 0 {
                kind = .doubleClick
            } else if ccurses_is_click(state) != 0 {
                kind = .click
            } else {
                return nil
            }
            return .mouse(MouseEvent(kind, x: Int(event.x), y: Int(event.y)))
        default:
            let f0 = ccurses_key_f0()
            if code > f0 && code <= f0 + 24 { return .key(.function(Int(code - f0))) }
            return nil
        }
    }

    // MARK: - Styles

    private func look(of style: Style) -> (Int16, UInt32) {
        let base = pairs[style.role] ?? (0, 0)
        var attributes = base.attributes
        if style.bold { attributes |= ccurses_attr_bold() }
        if style.underline { attributes |= ccurses_attr_underline() }
        return (base.pair, attributes)
    }

    /// Colours come from the terminal's own palette (the eight standard colours and the default
    /// foreground and background); without colour, attributes alone tell the roles apart.
    private func setUpStyles() {
        let bold = ccurses_attr_bold(), reverse = ccurses_attr_reverse(), underline = ccurses_attr_underline(), dim = ccurses_attr_dim()
        guard useColor else {
            pairs = [.dim: (0, dim), .header: (0, bold), .border: (0, 0), .title: (0, reverse | bold), .accent: (0, bold),
                     .selection: (0, reverse), .selectionUnfocused: (0, underline), .status: (0, reverse),
                     .statusKey: (0, reverse | bold), .error: (0, bold), .message: (0, bold), .mark: (0, 0), .overlay: (0, 0),
                     .searchBar: (0, 0), .searchMatch: (0, reverse), .normal: (0, 0)]
            return
        }
        let fallback: Int16 = -1
        let grey: Int16 = ccurses_colors() >= 16 ? 8 : Int16(COLOR_WHITE)
        let table: [(StyleRole, Int16, Int16, UInt32)] = [
            (.normal, fallback, fallback, 0),
            (.dim, grey, fallback, ccurses_colors() >= 16 ? 0 : dim),
            (.header, Int16(COLOR_CYAN), fallback, bold),
            (.border, Int16(COLOR_BLUE), fallback, 0),
            (.title, Int16(COLOR_BLACK), Int16(COLOR_CYAN), 0),
            (.accent, Int16(COLOR_YELLOW), fallback, 0),
            (.selection, Int16(COLOR_BLACK), Int16(COLOR_CYAN), 0),
            (.selectionUnfocused, Int16(COLOR_WHITE), Int16(COLOR_BLUE), 0),
            (.status, Int16(COLOR_BLACK), Int16(COLOR_WHITE), 0),
            (.statusKey, Int16(COLOR_BLUE), Int16(COLOR_WHITE), 0),
            (.searchBar, fallback, fallback, 0),
            (.searchMatch, Int16(COLOR_BLACK), Int16(COLOR_YELLOW), 0),
            (.message, Int16(COLOR_GREEN), fallback, 0),
            (.error, Int16(COLOR_RED), fallback, bold),
            (.mark, Int16(COLOR_GREEN), fallback, 0),
            (.overlay, fallback, fallback, 0),
        ]
        for (index, row) in table.enumerated() {
            let pair = Int16(index + 1)
            init_pair(pair, row.1, row.2)
            pairs[row.0] = (pair, row.3)
        }
    }

    /// What leaves full-screen mode, for the crash handler (xterm mouse modes off, then
    /// terminfo's sgr0, cnorm and rmcup).
    private static func restoreSequence() -> String {
        var text = "\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1003l\u{1B}[?1006l"
        for capability in ["sgr0", "cnorm", "rmcup", "rmkx"] {
            if let value = tigetstr(capability), Int(bitPattern: value) != -1 {
                text += String(cString: value)
            }
        }
        return text + "\r\n"
    }
}
