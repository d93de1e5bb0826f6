import BibModel
import BibreadTestSupport
import Testing
@testable import Reader
@testable import ReaderCore

/// The reader's syncs of its own and the question when it quits during a sync (issue 30), as
/// update sees them; the real binary's are in BackgroundSyncEndToEndTests.
@Suite("background syncs in the reader")
struct BackgroundSyncReaderTests {
    private static func syncedSamples(canDetach: Bool = true) -> ReaderHarness {
        var harness = ReaderHarness.samples()
        harness.state.backgroundSync = BackgroundSyncSettings(remote: "lab", canDetach: canDetach)
        return harness
    }

    @Test func aDueSyncStartsOnlyForARemotesLibraryAndNeverTwice() {
        var plain = ReaderHarness.samples()
        #expect(plain.state.update(.syncDue).isEmpty, "a library from no remote is not synced")

        var harness = Self.syncedSamples()
        #expect(harness.state.update(.syncDue) == [.sync(.syncInBackground(group: nil, shownGroup: .all))])
        #expect(harness.state.syncing != nil)
        #expect(harness.state.update(.syncDue).isEmpty, "one sync at a time")
        // Keys are answered meanwhile; the status line shows the sync.
        harness.press("j")
        #expect(harness.screen.contains("Syncing 'lab' in the background… · Esc stops it"))
        _ = harness.state.update(.syncFinished(summary: "Synced 'lab' in the background", libraryChanged: false, failed: false))
        #expect(harness.state.syncing == nil)
        #expect(harness.state.update(.syncDue) == [.sync(.syncInBackground(group: nil, shownGroup: .all))])
    }

    @Test func aMessageStaysUpDuringASyncOfItsOwnUntilAKey() {
        var harness = Self.syncedSamples()
        harness.state.message = StatusMessage("The background sync of 'lab' finished: 3 downloaded, 2 already here")
        _ = harness.state.syncOnItsOwn()
        #expect(harness.screen.contains("The background sync of 'lab' finished: 3 downloaded"))
        harness.press("j")
        #expect(harness.screen.contains("Syncing 'lab' in the background…"))
    }

    @Test func aSyncOfItsOwnThatBringsNothingNewLeavesTheMessageOnScreen() {
        var harness = Self.syncedSamples()
        harness.state.message = StatusMessage("2 errors, 0 warnings while reading; run 'bibread check' for details", isError: true)
        _ = harness.state.syncOnItsOwn()
        _ = harness.state.update(.syncFinished(summary: "", libraryChanged: false, failed: false))
        #expect(harness.state.message?.text.hasPrefix("2 errors, 0 warnings while reading") == true)
        _ = harness.state.syncOnItsOwn()
        _ = harness.state.update(.syncFinished(summary: "Synced 'lab' in the background: 1 downloaded, 0 already here", libraryChanged: false, failed: false))
        #expect(harness.state.message?.text == "Synced 'lab' in the background: 1 downloaded, 0 already here")
    }

    @Test func qDuringASyncAsksAndEachAnswerDoesWhatItSays() {
        var harness = Self.syncedSamples()
        _ = harness.state.update(.key(.function(5)))
        #expect(harness.state.syncing != nil)
        harness.press("q")
        #expect(harness.screen.contains("A sync of 'lab' is running: finish it in the background? (y/n)"))
        #expect(!harness.state.isQuitting)
        harness.press("Escape")
        #expect(!harness.screen.contains("finish it in the background?"), "Esc keeps reading")
        #expect(!harness.state.isQuitting)

        var yes = harness
        yes.press("q")
        #expect(yes.state.update(.key(.character("y")))
                == [.sync(.endSyncForQuit(detach: true, group: nil)), .app(.saveSession), .app(.quit)])
        var no = harness
        no.press("q")
        #expect(no.state.update(.key(.character("n")))
                == [.sync(.endSyncForQuit(detach: false, group: nil)), .app(.saveSession), .app(.quit)])
    }

    @Test func aSyncThatEndsWhileTheQuestionIsUpLetsTheReaderQuit() {
        var harness = Self.syncedSamples()
        _ = harness.state.syncOnItsOwn()
        harness.press("q")
        #expect(harness.screen.contains("finish it in the background? (y/n)"))
        #expect(harness.state.update(.syncFinished(summary: "", libraryChanged: true, failed: false)) == [.app(.saveSession), .app(.quit)])
        #expect(harness.state.isQuitting)
        #expect(!harness.screen.contains("finish it in the background?"))
    }

    @Test func withoutASyncOrAWayToDetachQQuitsAtOnce() {
        var idle = Self.syncedSamples()
        #expect(idle.state.update(.key(.character("q"))) == [.app(.saveSession), .app(.quit)])
        var embedded = Self.syncedSamples(canDetach: false)
        _ = embedded.state.syncOnItsOwn()
        #expect(embedded.state.update(.key(.character("q"))) == [.app(.saveSession), .app(.quit)])
    }
}
