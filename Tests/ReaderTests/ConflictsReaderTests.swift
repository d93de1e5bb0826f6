import BibModel
import BibreadServices
import BibreadTestSupport
import Foundation
import SyncEngine
import Testing
@testable import Reader
@testable import ReaderCore

/// A synced library's conflicts in the reader: the group Conflicts, the `!`, both values in the
/// details, and `C` to keep mine, the remote's, or another value (as `bibread conflicts resolve`).
@Suite("conflicts in the reader")
struct ConflictsReaderTests {
    private static let text = """
    @article{adams2001, author = {Ann Adams}, title = {A paper on graphs}, year = 2001, rating = {5}}
    @article{baker2002, author = {Bob Baker}, title = {Another paper on trees}, year = 2002}

    """

    /// A synced remote `lab` whose library.bib has adams2001 rated 5 by the other machine, and
    /// whose journal keeps this machine's 4 as a conflict; the harness on it.
    private struct Remote {
        let root: URL
        let bib: URL
        let environment: [String: String]
        var harness: ReaderHarness

        init() throws {
            root = try Fixtures.temporaryDirectory()
            environment = ["XDG_DATA_HOME": root.appendingPathComponent("data").path, "XDG_CACHE_HOME": root.appendingPathComponent("cache").path,
                           "XDG_STATE_HOME": root.appendingPathComponent("state").path, "HOME": root.path]
            let locations = RemoteLocations(name: "lab", environment: environment)
            try FileManager.default.createDirectory(at: locations.library, withIntermediateDirectories: true)
            bib = locations.library.appendingPathComponent("library.bib")
            try ConflictsReaderTests.text.write(to: bib, atomically: true, encoding: .utf8)
            try EditJournal(url: locations.journal).finishPush(
                of: [], conflicts: [MergeConflict(kind: .field, address: "adams2001", field: "rating", base: nil, mine: "4", theirs: "5")],
                file: "library.bib", at: 1_790_000_000)
            harness = ReaderHarness(library: Fixtures.library(at: bib), paths: [bib.path], width: 120, height: 40,
                                    editState: root.appendingPathComponent("state/bibread"), environment: environment, synced: true)
            let path = bib.path
            harness.reload = {
                let library = Fixtures.library(at: URL(fileURLWithPath: path))
                return (library, BackgroundWork(library: library, groups: GroupCatalog.savedGroups(of: library, synced: true),
                                                now: ReaderHarness.now, fullTextURL: nil, environment: [:]))
            }
        }

        var openConflicts: Int {
            (try? ConflictResolution.openConflicts(ofLibraryAt: bib.path, environment: environment).count) ?? -1
        }
    }

    @Test func theGroupTheMarkAndBothValuesAreShown() throws {
        var remote = try Remote()
        defer { try? FileManager.default.removeItem(at: remote.root) }
        #expect(remote.harness.state.groupCounts[.builtIn(.conflicts)] == 1)
        #expect(remote.harness.screen.contains("Conflicts"))
        remote.harness.press("/")
        remote.harness.type("key:adams2001")
        remote.harness.press("Enter")
        let screen = remote.harness.screen
        #expect(screen.contains(" ●✓!") || screen.contains("  !") || screen.contains(" ✓!"), "the row's mark:\n\(screen)")
        #expect(screen.contains("Conflicts · C resolves"))
        #expect(screen.contains("rating: here 4 · remote 5"))
    }

    @Test func cThenMKeepsMineInTheFileAndClosesTheConflict() throws {
        var remote = try Remote()
        defer { try? FileManager.default.removeItem(at: remote.root) }
        remote.harness.press("/")
        remote.harness.type("key:adams2001")
        remote.harness.press("Enter", "C")
        #expect(remote.harness.screen.contains("rating: m keeps mine '4' · r keeps the remote's '5' · e edits"))
        remote.harness.press("m")
        let message = try #require(remote.harness.state.message)
        #expect(!message.isError, "\(message.text)")
        #expect(message.text.contains("adams2001 rating: set to '4' (yours)"), "\(message.text)")
        #expect(try String(contentsOf: remote.bib, encoding: .utf8).contains("rating = {4}"))
        #expect(remote.openConflicts == 0)
        #expect(remote.harness.state.groupCounts[.builtIn(.conflicts)] == 0)
        #expect(!remote.harness.screen.contains("Conflicts · C resolves"))
    }

    @Test func cThenRKeepsTheRemotesAndEWritesAnother() throws {
        var remote = try Remote()
        defer { try? FileManager.default.removeItem(at: remote.root) }
        remote.harness.press("/")
        remote.harness.type("key:adams2001")
        remote.harness.press("Enter", "C", "Esc")
        #expect(remote.openConflicts == 1, "Esc leaves it")
        remote.harness.press("C", "e")
        #expect(remote.harness.screen.contains("rating (resolving the conflict) = 4"))
        remote.harness.press("C-u")
        remote.harness.type("3")
        remote.harness.press("Enter")
        #expect(try String(contentsOf: remote.bib, encoding: .utf8).contains("rating = {3}"))
        #expect(remote.openConflicts == 0)

        var theirs = try Remote()
        defer { try? FileManager.default.removeItem(at: theirs.root) }
        theirs.harness.press("/")
        theirs.harness.type("key:adams2001")
        theirs.harness.press("Enter", "C", "r")
        #expect(theirs.harness.state.message?.text.contains("kept the library's value '5'") == true)
        #expect(try String(contentsOf: theirs.bib, encoding: .utf8) == ConflictsReaderTests.text, "nothing written")
        #expect(theirs.openConflicts == 0)
    }
}
