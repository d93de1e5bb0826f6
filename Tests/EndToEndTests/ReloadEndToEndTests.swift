import BibreadTestSupport
import Foundation
import Testing

/// The .bib changed on disk while the real binary shows it: `R`, and the watcher.
@Suite("Reloading the library, end to end (tmux)", .onOwnThreads)
struct ReloadEndToEndTests {
    private static let first = "@book{first2020, author = {First, Ann}, title = {The First Book}, year = 2020}\n"
    private static let second = "@book{second2021, author = {Second, Bo}, title = {A Second Book}, year = 2021}\n"

    /// Runs the reader on `mine.bib` holding one book until it is listed, then `body` with the
    /// file, and checks that `q` ends it cleanly.
    private func withOneBook(_ body: (Tmux, URL) async throws -> Void) async throws {
        let helper = ReaderEndToEndTests()
        try await helper.withSession(command: { sandbox in
            let bib = sandbox.home.appendingPathComponent("mine.bib")
            try? Self.first.write(to: bib, atomically: true, encoding: .utf8)
            return sandbox.bibread([bib.path])
        }) { tmux, sandbox in
            try await tmux.waitFor("1 of 1 · All")
            try await body(tmux, sandbox.home.appendingPathComponent("mine.bib"))
            try await tmux.sendKeys("q")
            try await helper.expectCleanExit(tmux)
        }
    }

    @Test("R asks, y reads the changed .bib again, and the new entry is listed")
    func rReadsTheChangedFileAgain() async throws {
        try await withOneBook { tmux, bib in
            try (Self.first + Self.second).write(to: bib, atomically: true, encoding: .utf8)
            try await tmux.sendKeys("R")
            try await tmux.waitFor("Reload the library from disk? (y/n)")
            try await tmux.sendKeys("y")
            try await tmux.waitFor("Read the library again from disk: 2 references")
            try await tmux.waitFor("A Second Book")
        }
    }

    @Test("A change another program makes to the .bib is read at once, written in place or renamed over it")
    func aChangeOnDiskIsReadWithoutAKey() async throws {
        try await withOneBook { tmux, bib in
            // As an editor saves: a new file renamed over the old one.
            try (Self.first + Self.second).write(to: bib, atomically: true, encoding: .utf8)
            try await tmux.waitFor("mine.bib changed on disk; read again: 2 references")
            try await tmux.waitFor("A Second Book")
            // As a sync client or `cat >>` writes: the same file, appended to.
            let handle = try FileHandle(forWritingTo: bib)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("@book{third2022, author = {Third, Cy}, title = {The Third Book}, year = 2022}\n".utf8))
            try handle.close()
            try await tmux.waitFor("read again: 3 references")
            try await tmux.waitFor("The Third Book")
        }
    }
}
