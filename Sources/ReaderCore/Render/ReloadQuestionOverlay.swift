/// `R`: the question before the library is read again from disk.
enum ReloadQuestionOverlay {
    static func draw(_ state: AppState, into screen: inout ScreenBuffer) {
        let files = state.libraryPaths.count == 1 ? state.libraryTitle : "\(state.libraryPaths.count) files: \(state.libraryTitle)"
        let yes = BookmarksView.key(.yes, state), no = BookmarksView.key(.no, state)
        let lines = [
            "Read \(files) again from disk?",
            "The group, the selection, the sort and the search stay.",
            "",
            "\(yes)  reload      \(no)  leave it as it is",
        ]
        Box.draw(title: "Reload the library from disk? (y/n)", lines: lines, width: 64, bold: { $0 == 3 }, into: &screen)
    }
}
