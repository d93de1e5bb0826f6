import CCurses

/// Facts about the ncursesw library this binary is linked with.
public enum CursesLibrary {
    /// The library's version string, such as `ncurses 6.4.20221231`.
    public static var version: String {
        guard let text = curses_version() else { return "unknown" }
        return String(cString: text)
    }

    /// The attribute value of colour pair `pair` (the `COLOR_PAIR` macro, through the shim).
    public static func colorPairAttribute(_ pair: Int32) -> Int32 {
        ccurses_color_pair(pair)
    }
}
