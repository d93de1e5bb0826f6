import BibModel
import BibreadTestSupport
import Foundation
import Testing
@testable import Reader
@testable import ReaderCore

/// `R`: read the library again from disk, after a question, keeping what is shown.
@Suite("reloading the library")
struct ReloadTests {
    private static let threePapers = """
    @article{adams2001, author = {Ann Adams}, title = {A paper on graphs}, year = 2001}
    @article{baker2002, author = {Bob Baker}, title = {Another paper on trees}, year = 2002}
    @article{clark2003, author = {Cy Clark}, title = {Notes, not a paper}, year = 2003}
    """

    @Test func rAsksThenReadsTheFileAgainKeepingGroupSelectionSortAndSearch() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bib = folder.appendingPathComponent("library.bib")
        try ReloadTests.threePapers.write(to: bib, atomically: true, encoding: .utf8)
        var harness = ReaderHarness(library: Fixtures.library(at: bib), paths: [bib.path], width: 120, height: 40)
        harness.press("s", "S")
        harness.press("/")
        harness.type("paper")
        harness.press("Enter", "j")
        let selected = try #require(harness.state.selectedEntry?.key)
        let (sort, descending, shown) = (harness.state.sort, harness.state.sortDescending, harness.state.visible.count)

        // Another program adds a paper to the file.
        try (ReloadTests.threePapers + "\n@article{zhou2026, author = {Zed Zhou}, title = {A new paper on paths}, year = 2026}\n")
            .write(to: bib, atomically: true, encoding: .utf8)
        harness.press("R")
        #expect(harness.screen.contains("Reload the library from disk? (y/n)"))
        harness.press("j")
        #expect(harness.state.selectedEntry?.key == selected, "while asked, the list does not move")
        let asked = harness.state.update(.key(.character("y")))
        #expect(asked == [.app(.reloadLibrary)], "y asks the shell to read the files again")
        #expect(!harness.screen.contains("Reload the library from disk?"))
        #expect(harness.state.message?.text == "Reading the library again from disk…")

        // The shell reads the files and starts the background work anew on the new library.
        let reloaded = Fixtures.library(at: bib)
        var shell = ReaderHarness(library: reloaded, paths: [bib.path], width: 120, height: 40)
        shell.state = harness.state
        shell.send(.libraryReloaded(reloaded))
        #expect(shell.state.totalCount == 4)
        #expect(shell.state.message?.text == "Read the library again from disk: 4 references")
        #expect(shell.state.visible.count == shown + 1, "the search still filters, and finds the new paper")
        #expect(shell.state.selectedEntry?.key == selected)
        #expect(shell.state.sort == sort && shell.state.sortDescending == descending)
        #expect(shell.state.searchText == "paper")
        #expect(shell.screen.contains("zhou2026") || shell.screen.contains("Zhou"))
    }

    @Test func nOrEscLeavesTheLibraryAsItIs() {
        var harness = ReaderHarness.samples()
        for answer in ["n", "Esc"] {
            harness.press("R")
            #expect(harness.screen.contains("Reload the library from disk? (y/n)"))
            let effects = harness.state.update(.key(Key(name: answer) ?? .escape))
            #expect(effects.isEmpty)
            #expect(!harness.screen.contains("Reload the library from disk?"))
        }
    }
}
