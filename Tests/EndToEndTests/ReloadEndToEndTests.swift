import BibreadTestSupport
import Foundation
import Testing

/// `R` in the real binary: the .bib is changed on disk while bibread shows it.
@Suite("Reloading the library, end to end (tmux)")
struct ReloadEndToEndTests {
    @Test("R asks, y reads the changed .bib again, and the new entry is listed")
    func rReadsTheChangedFileAgain() async throws {
        let helper = ReaderEndToEndTests()
        try await helper.withSession(command: { sandbox in
            let bib = sandbox.home.appendingPathComponent("mine.bib")
            try? "@book{first2020, author = {First, Ann}, title = {The First Book}, year = 2020}\n"
                .write(to: bib, atomically: true, encoding: .utf8)
            return sandbox.bibread([bib.path])
        }) { tmux, sandbox in
            try await tmux.waitFor("1 of 1 · All")
            let bib = sandbox.home.appendingPathComponent("mine.bib")
            try ("@book{first2020, author = {First, Ann}, title = {The First Book}, year = 2020}\n"
                 + "@book{second2021, author = {Second, Bo}, title = {A Second Book}, year = 2021}\n")
                .write(to: bib, atomically: true, encoding: .utf8)
            try await tmux.sendKeys("R")
            try await tmux.waitFor("Reload the library from disk? (y/n)")
            try await tmux.sendKeys("y")
            try await tmux.waitFor("Read the library again from disk: 2 references")
            try await tmux.waitFor("A Second Book")
            try await tmux.sendKeys("q")
            try await helper.expectCleanExit(tmux)
        }
    }

    @Test("A change another program makes to the .bib is read at once, written in place or renamed over it")
    func aChangeOnDiskIsReadWithoutAKey() async throws {
        let helper = ReaderEndToEndTests()
        try await helper.withSession(command: { sandbox in
            let bib = sandbox.home.appendingPathComponent("mine.bib")
            try? "@book{first2020, author = {First, Ann}, title = {The First Book}, year = 2020}\n"
                .write(to: bib, atomically: true, encoding: .utf8)
            return sandbox.bibread([bib.path])
        }) { tmux, sandbox in
            try await tmux.waitFor("1 of 1 · All")
            let bib = sandbox.home.appendingPathComponent("mine.bib")
            // As an editor saves: a new file renamed over the old one.
            try ("@book{first2020, author = {First, Ann}, title = {The First Book}, year = 2020}\n"
                 + "@book{second2021, author = {Second, Bo}, title = {A Second Book}, year = 2021}\n")
                .write(to: bib, atomically: true, encoding: .utf8)
            try await tmux.waitFor("mine.bib changed on disk; read again: 2 references")
            try await tmux.waitFor("A Second Book")
            // As a sync client or `cat >>` writes: the same file, appended to.
            let handle = try FileHandle(forWritingTo: bib)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("@book{third2022, author = {Third, Cy}, title = {The Third Book}, year = 2022}\n".utf8))
            try handle.close()
            try await tmux.waitFor("read again: 3 references")
            try await tmux.waitFor("The Third Book")
            try await tmux.sendKeys("q")
            try await helper.expectCleanExit(tmux)
        }
    }
}
