import Foundation
import ReaderCore
import Synchronization

/// Runs background effects where their route says (a queue, or at once) with the work for the
/// library shown, and posts what they report to the mailbox.
final class EffectRunner: Sendable {
    /// The work for the library shown, and a generation that a reload advances: results of
    /// the old work (positions in the old library) are dropped, never applied to the new one.
    private let current: Mutex<(work: BackgroundWork?, generation: Int)>
    private let mailbox: Mailbox
    private let queues: any JobQueues
    /// Writes the reader's edits (whatever library is shown: its reports are never dropped).
    let editWriter: LibraryEditWriter

    init(work: BackgroundWork?, mailbox: Mailbox, queues: any JobQueues = DispatchJobQueues(),
         editWriter: LibraryEditWriter = LibraryEditWriter()) {
        current = Mutex((work, 0))
        self.mailbox = mailbox
        self.queues = queues
        self.editWriter = editWriter
    }

    /// Waits up to `timeout` seconds for the edits asked for to be written; false if some are not.
    func finishLibraryWrites(timeout: TimeInterval) -> Bool {
        editWriter.waitForWrites(timeout: timeout)
    }

    /// Waits for the reading, bookmark and note writes asked for so far (the program is about
    /// to exit: a `t` or a page turned just before quitting is saved, not lost with the process).
    func finishReadingWrites() {
        queues.finish(.readingWrites)
        queues.finish(.bookmarkWrites)
    }

    /// Work for a reloaded library; what the old one still had under way reports into the void
    /// (update ignores results for groups, sorts and documents it no longer asks about).
    func replace(_ work: BackgroundWork) {
        current.withLock { $0.work?.stopIndexing() }
        current.withLock { $0 = (work, $0.generation + 1) }
        _ = mailbox.take()
    }

    /// Runs a background effect where its family's route says; `quitting`: the reader is about
    /// to end (see `EffectRoute.writeKeptOnQuit`).
    func run(_ effect: Effect, quitting: Bool = false) {
        switch effect {
        case .library(let library):
            // Held until the work has run: the last of them gives back what they all freed.
            let scratch = library.freesScratch ? FreedMemory.workBegins() : nil
            dispatch(library.route, quitting: quitting) { work, _, post in
                work.perform(library, post: post)
                withExtendedLifetime(scratch) {}
            }
        case .document(let document):
            dispatch(document.route, quitting: quitting) { [queues] work, _, post in
                work.perform(document, post: post)
                // Read the next pages ahead, at low priority, so that turning the page is instant.
                if case .extractPage(let path, let page, let mode) = document {
                    queues.async(on: .prefetch) { work.prefetch(path, after: page, mode: mode) }
                }
            }
        case .reading(let reading):
            dispatch(reading.route, quitting: quitting) { work, _, post in work.perform(reading, post: post) }
        case .bookmarks(let bookmarks):
            dispatch(bookmarks.route, quitting: quitting) { work, _, post in work.perform(bookmarks, post: post) }
        case .readingList(let list):
            dispatch(list.route, quitting: quitting) { work, token, post in work.perform(list, token: token, post: post) }
        case .sync(let sync):
            dispatch(sync.route, quitting: quitting) { work, token, post in work.perform(sync, token: token, post: post) }
        case .fullText(let fullText):
            dispatch(fullText.route, quitting: quitting) { work, token, post in work.perform(fullText, token: token, post: post) }
        case .editing(let edit):
            runEdit(edit)
        case .app, .handlers:
            // The loop performs these itself (`ReaderLoop`): they need the terminal or outlive the library.
            break
        }
    }

    /// An edit's effect: the edited entry goes to the background work at once; writes go on
    /// their queue, and what they report reaches the loop even after a reload.
    private func runEdit(_ edit: EditEffect) {
        if case .showEdited(let edited) = edit {
            current.withLock { $0.work }?.replaceEntry(at: edited.position, with: edited.entry)
            return
        }
        guard case .queue(let queue) = edit.route else { return }
        editWriter.begin()
        queues.async(on: queue) { [editWriter, mailbox] in editWriter.perform(edit, post: { mailbox.post($0) }) }
    }

    private func dispatch(_ route: EffectRoute, quitting: Bool,
                          _ perform: @escaping @Sendable (BackgroundWork, CancellationToken, @escaping @Sendable (Event) -> Void) -> Void) {
        let (maybeWork, generation) = current.withLock { $0 }
        guard let work = maybeWork else { return }
        let post: @Sendable (Event) -> Void = { [self] event in
            if current.withLock({ $0.generation }) == generation { mailbox.post(event) }
        }
        // Work that is not a job of its own is never stopped: its token stays as it is.
        let uncancelled = CancellationToken()
        switch route {
        case .queue(let queue):
            queues.async(on: queue) { perform(work, uncancelled, post) }
        case .job(let job, let queue):
            let token = work.jobs.begin(job)
            queues.async(on: queue) { perform(work, token, post) }
        case .atOnce:
            perform(work, uncancelled, post)
        case .writeKeptOnQuit(let queue):
            if quitting {
                // Written before the program ends, not on a queue that exit would cut short.
                perform(work, uncancelled, { _ in })
            } else {
                queues.async(on: queue) { perform(work, uncancelled, post) }
            }
        }
    }
}
