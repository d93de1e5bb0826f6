import BibreadTestSupport
import Foundation
import Testing

/// `t` (reflow or layout) is remembered per document, end to end: the real binary in tmux
/// switches a document to its layout, quits, and a new run opens it in layout again, while
/// another document still opens reflowed.
@Suite("Layout mode memory, end to end (tmux)", .onOwnThreads)
struct LayoutModeEndToEndTests {
    /// Whether the title bar (the first row) ends with `mode`.
    static func titleBarShows(_ mode: String, in screen: String) -> Bool {
        Tmux.rows(of: screen).first?.trimmingCharacters(in: .whitespaces).hasSuffix(mode) ?? false
    }

    /// Leaves the reading view, then the program, which must exit cleanly.
    static func quit(_ tmux: Tmux, _ helper: ReaderEndToEndTests) async throws {
        try await tmux.sendKeys("q")
        try await tmux.waitFor("1 of 25")
        try await tmux.sendKeys("q")
        try await helper.expectCleanExit(tmux)
    }

    @Test("t switches a document to its layout; quit, start again, and it opens in layout; another opens reflowed")
    func layoutModeSurvivesQuitting() async throws {
        let helper = ReaderEndToEndTests()
        try await helper.withSession(command: { $0.bibread([SampleLibrary.path]) }) { tmux, _ in
            try await helper.openSamplePDF(key: "goedel1931formal", in: tmux)
            try await tmux.waitUntil("the page reflowed") { Self.titleBarShows("reflow", in: $0) }
            try await tmux.sendKeys("t")
            try await tmux.waitFor("Layout: the page as printed")
            // The page in its layout: the PDF is open (a `t` before that is saved when it opens).
            try await tmux.waitUntil("the page's text in its layout") { Self.titleBarShows("layout", in: $0) && $0.contains("Abstract") }
            try await Self.quit(tmux, helper)

            // The same command again, in the same sandbox.
            try await tmux.respawn()
            try await helper.openSamplePDF(key: "goedel1931formal", in: tmux)
            try await tmux.waitUntil("the page in its layout") { Self.titleBarShows("layout", in: $0) }
            try await Self.quit(tmux, helper)

            try await tmux.respawn()
            try await helper.openSamplePDF(key: "knuth1981breaking", in: tmux)
            try await tmux.waitUntil("the other document reflowed") { Self.titleBarShows("reflow", in: $0) }
            try await Self.quit(tmux, helper)
        }
    }
}
