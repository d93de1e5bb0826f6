import ReaderCore
/// The screen the loop draws on and reads input from: curses in the app (`CursesScreen`).
protocol ReaderTerminal: AnyObject {
    var size: (width: Int, height: Int) { get }
    /// Draws what differs from the last frame (everything after `invalidate`).
    func draw(_ buffer: ScreenBuffer)
    /// Forgets what is on screen, so that the next draw redraws it all.
    func invalidate()
    /// The next key, click or resize waiting, or nil.
    func nextInput() -> Event?
    /// Gives the terminal back to the shell until the program is resumed (Ctrl-Z).
    func suspend()
}

extension CursesScreen: ReaderTerminal {}
