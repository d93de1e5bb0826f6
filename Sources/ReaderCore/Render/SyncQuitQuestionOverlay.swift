/// `q` during a sync: finish it in the background, or stop it, before the reader quits?
enum SyncQuitQuestionOverlay {
    static func draw(remote: String, _ state: AppState, into screen: inout ScreenBuffer) {
        let yes = BookmarksView.key(.yes, state), no = BookmarksView.key(.no, state), stay = BookmarksView.key(.cancel, state)
        let lines = [
            "A sync of '\(remote)' is running: finish it in the background? (y/n)",
            "",
            "\(yes)  quit; 'bibread sync \(remote)' goes on without the terminal",
            "\(no)  stop the sync and quit (the next sync resumes)",
            "\(stay)  keep reading",
        ]
        Box.draw(title: "Quit while syncing?", lines: lines, width: 76, bold: { $0 == 0 }, into: &screen)
    }
}
