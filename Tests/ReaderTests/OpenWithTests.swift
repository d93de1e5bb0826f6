import BibModel
import BibreadTestSupport
import Foundation
import OpenWith
import Testing
@testable import Reader
@testable import ReaderCore

/// Links and "open with" in the reader, driven through update: the menu is worked out against
/// a folder of stand-in programs, and the effects the state asks for are checked.
@Suite("links and open with in the reader")
struct ReaderOpenWithTests {
    /// A folder with an executable `zathura` (it is never run here: the menu only looks).
    private func standIns() throws -> URL {
        let folder = try Fixtures.temporaryDirectory()
        let program = folder.appendingPathComponent("zathura")
        try "#!/bin/sh\nexit 0\n".write(to: program, atomically: true, encoding: .utf8)
        chmod(program.path, 0o755)
        return folder
    }

    @Test func oInTheReadingViewOffersTheInstalledViewerAtThePage() throws {
        let folder = try standIns()
        defer { try? FileManager.default.removeItem(at: folder) }
        var harness = ReaderHarness.samples(width: 120, height: 30)
        harness.handlerPath = folder.path
        harness.read("goedel1931formal")
        harness.press(":")
        harness.type("4")
        harness.press("Enter", "o")
        let menu = try #require(harness.state.openWith)
        let items = try #require(menu.items)
        #expect(items.contains { $0.entry.id == "zathura" && $0.isRunnable })
        #expect(!items.contains { $0.entry.id == "evince" }, "not installed, not always shown")
        #expect(items.contains { $0.entry.id == "espeak-ng" && !$0.isRunnable && $0.installHint == "sudo apt install espeak-ng" })
        #expect(harness.screen.contains("Open goedel1931formal p. 4 with — All"))
        let index = try #require(items.firstIndex { $0.entry.id == "zathura" })
        for _ in 0..<index { harness.press("j") }
        harness.press("Enter")
        #expect(harness.state.openWith == nil)
        guard case .handlers(.runHandler(let entry, let executable, let values))? = harness.handlerEffects.last else {
            Issue.record("no handler was run: \(harness.handlerEffects)")
            return
        }
        #expect(entry.id == "zathura")
        #expect(executable == folder.appendingPathComponent("zathura").path)
        #expect(values[.page] == "4")
        #expect(values[.file] == Fixtures.samples.appendingPathComponent("papers/incompleteness.pdf").path)
        #expect(values[.key] == "goedel1931formal")
        #expect(values[.pageText]?.isEmpty == false)
    }

    @Test func aMissingAppShowsHowToInstallItInsteadOfRunning() throws {
        var harness = ReaderHarness.samples(width: 120, height: 30)
        harness.read("goedel1931formal")
        harness.press("o", "Tab", "Tab", "Tab", "Tab")
        #expect(harness.state.openWith?.intention == .listen)
        let items = try #require(harness.state.openWith?.items)
        #expect(items.map(\.entry.id) == ["espeak-ng"])
        harness.press("Enter")
        #expect(harness.state.message == StatusMessage("Read the page aloud (espeak-ng) is not installed: sudo apt install espeak-ng", isError: true))
        #expect(harness.handlerEffects.isEmpty)
    }

    @Test func yCopiesTheLinkToThePageRead() throws {
        var harness = ReaderHarness.samples(width: 120, height: 30)
        harness.read("goedel1931formal")
        harness.press("]", "]", "y")
        #expect(harness.handlerEffects.last == .handlers(.copyToClipboard(text: "bibread://open?refs=[goedel1931formal:3]&library=library.bib", what: "the link")))
        harness.press("q", "y")
        #expect(harness.handlerEffects.last == .handlers(.copyToClipboard(text: "bibread://open?refs=[goedel1931formal]&library=library.bib", what: "the link")))
    }

    @Test func aLinkOpensItsFirstTargetAtThePageAndListsTheOthers() throws {
        var harness = ReaderHarness.samples(width: 120, height: 30)
        let link = try ReferenceLink.parse("bibread://open?refs=[goedel1931formal:5-6],[knuth1984texbook:2],[nobody99]")
        harness.run(harness.state.openLink(link))
        #expect(harness.state.reading?.page == 5)
        #expect(harness.state.reading?.address == "goedel1931formal")
        harness.press("q")
        #expect(harness.state.activeGroup == .builtIn(.fromLink))
        #expect(harness.state.visible.map { harness.state.library!.entries[$0].key } == ["goedel1931formal", "knuth1984texbook"])
        #expect(harness.screen.contains("From link"))
        harness.press("j", "Enter")
        #expect(harness.state.reading?.address == "knuth1984texbook")
        // The TeXbook's pages are printed i, ii, 1, 2, 3: the link's page 2 is the fourth of the file.
        #expect(harness.state.reading?.page == 4, "a reference of the link opens at the link's printed page")
    }

    @Test func aLinkForCitingOpensTheMenuAndRunsNothing() throws {
        var harness = ReaderHarness.samples(width: 120, height: 30)
        let link = try ReferenceLink.parse("bibread://open?refs=[knuth1984texbook]&intention=cite")
        harness.run(harness.state.openLink(link))
        #expect(harness.state.reading == nil)
        #expect(harness.state.openWith?.intention == .cite)
        #expect(harness.state.openWith?.items?.map(\.entry.id).contains("copy-bibtex-osc52") == true)
        #expect(harness.handlerEffects.isEmpty, "following a link runs nothing by itself")
    }
}
