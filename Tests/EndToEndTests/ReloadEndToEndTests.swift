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
}
