import BibModel
import BibreadServices
import Foundation
import ReaderCore
import SyncEngine
import Synchronization

/// Writes the reader's edits, one at a time and in order (`EffectRunner` puts them on one
/// serial queue), through `LibraryEditing`, the one way every command edits a file: the edit is
/// applied to the file as it is at that moment, checked, written atomically and kept for undo.
/// It reports each outcome as an event, whatever library the reader shows meanwhile, and tells
/// the library watcher about its own writes, so that the reader does not report them as another
/// program's.
final class LibraryEditWriter: Sendable {
    /// What the writer asks the library watcher: is a file as the reader last read it, and
    /// noting a file it wrote (true when the file is still what it wrote).
    struct WatchHooks: Sendable {
        let isAsLastRead: @Sendable (String) -> Bool
        let noteWritten: @Sendable (String, LoadedFileStamp) -> Void
    }

    private let editing: LibraryEditing
    private let writer: LibraryFileWriter
    private let environment: [String: String]
    private let hooks = Mutex<WatchHooks?>(nil)
    /// Writes asked for and not finished, and a condition to wait for none.
    private let pending = Mutex(0)
    private let finished = NSCondition()

    init(writer: LibraryFileWriter = LibraryFileWriter(), environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.writer = writer
        self.environment = environment
        editing = LibraryEditing(writer: writer, environment: environment)
    }

    /// Connects the library watcher (the app's; tests have none).
    func watch(with hooks: WatchHooks) {
        self.hooks.withLock { $0 = hooks }
    }

    /// Notes a write asked for (before it is put on the queue).
    func begin() {
        pending.withLock { $0 += 1 }
    }

    /// Waits up to `timeout` seconds for the writes asked for to be done; false if some are not.
    func waitForWrites(timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        finished.lock()
        defer { finished.unlock() }
        while pending.withLock({ $0 }) > 0 {
            if !finished.wait(until: deadline) { return pending.withLock { $0 } == 0 }
        }
        return true
    }

    /// Performs one write (or the look before an undo, or the read before `$EDITOR`) and posts
    /// its outcome; ends what `begin` began.
    func perform(_ effect: EditEffect, post: (Event) -> Void) {
        defer {
            finished.lock()
            pending.withLock { $0 -= 1 }
            finished.broadcast()
            finished.unlock()
        }
        switch effect {
        case .showEdited:
            break
        case .write(let request):
            post(write(request))
        case .describeUndo(let paths):
            post(describeUndo(paths))
        case .undo(let path):
            post(undo(path))
        case .loadEntryText(let address, let path):
            post(entryText(address, path: path))
        case .resolveConflict(let choice):
            post(resolve(choice))
        }
    }

    private func write(_ request: EditRequest) -> Event {
        let watch = hooks.withLock { $0 }
        let asRead = watch?.isAsLastRead(request.path) ?? true
        do {
            let outcome = try editing.apply(request.edits, to: request.address, in: request.path, command: request.command)
            let elsewhere = !asRead || outcome.write?.externalChange != nil
            if let write = outcome.write, write.wrote, !elsewhere { watch?.noteWritten(request.path, write.stamp) }
            return .editSaved(EditSaved(id: request.id, summary: outcome.result.summary, changes: outcome.result.changes,
                                        wrote: outcome.write?.wrote ?? false, changedElsewhere: elsewhere,
                                        changedGroup: outcome.write?.wrote == true && outcome.result.changedGroupComment != nil))
        } catch let error as EditError {
            return .editFailed(id: request.id, message: error.message)
        } catch {
            return .editFailed(id: request.id, message: TerminalText.cleanedLine("\(error)"))
        }
    }

    /// Of the library's files, the one bibread edited last, and what that edit was.
    private func describeUndo(_ paths: [String]) -> Event {
        let last = paths.compactMap { path in (try? writer.history(path: path))?.last.map { (path, $0) } }
            .max { $0.1.date < $1.1.date }
        guard let (path, edit) = last else {
            return .undoDescribed(path: nil, text: "Nothing to undo: bibread has not edited this library (or its edits were undone)")
        }
        let name = (path as NSString).lastPathComponent
        return .undoDescribed(path: path, text: TerminalText.cleanedLine("'\(edit.command)' of \(edit.dateText) in \(name)"))
    }

    private func undo(_ path: String) -> Event {
        do {
            let undo = try writer.undo(path: path)
            hooks.withLock { $0 }?.noteWritten(path, undo.stamp)
            let left = undo.remaining == 0 ? "no earlier edit is kept" : "\(undo.remaining) earlier edit\(undo.remaining == 1 ? "" : "s") can be undone"
            return .undoFinished(message: TerminalText.cleanedLine("Undid '\(undo.edit.command)' of \(undo.edit.dateText); \(left)"),
                                 failed: false)
        } catch {
            return .undoFinished(message: TerminalText.cleanedLine("Not undone: \(error)"), failed: true)
        }
    }

    /// Settles a conflict as `bibread conflicts resolve` does (`ConflictResolution`).
    private func resolve(_ choice: ConflictChoice) -> Event {
        do {
            guard let (journal, _) = try ConflictJournal.existing(forLibraryAt: choice.path, environment: environment) else {
                return .conflictResolved(message: "\(choice.address): the library's journal is gone; nothing to resolve", failed: true)
            }
            let found = try ConflictResolution.openConflicts(ofLibraryAt: choice.path, environment: environment).filter {
                $0.conflict.address.text.lowercased() == choice.address.text.lowercased() && $0.conflict.field == choice.field
            }
            guard !found.isEmpty else {
                return .conflictResolved(message: "\(choice.address) \(choice.field): no longer in conflict", failed: false)
            }
            let value: ConflictResolution.Choice = switch choice.value {
            case .theirs: .theirs
            case .mine: .mine
            case .other(let text): .value(text)
            }
            let line = try ConflictResolution(editing: editing).resolve(found, in: journal, choice: value,
                                                                        command: "conflicts resolve \(choice.address) \(choice.field)")
            return .conflictResolved(message: TerminalText.cleanedLine(line), failed: false)
        } catch let error as EditError {
            return .conflictResolved(message: "Not resolved: \(choice.address) \(choice.field): \(error.message)", failed: true)
        } catch {
            return .conflictResolved(message: TerminalText.cleanedLine("Not resolved: \(choice.address) \(choice.field): \(error)"), failed: true)
        }
    }

    /// The entry's text as the file has it now (the reader's copy may be older than the file).
    private func entryText(_ address: EntryAddress, path: String) -> Event {
        do {
            let (bytes, _) = try LoadedFileStamp.read(path)
            let library = Library.parse([(path: path, bytes: bytes)])
            guard let entry = library.entry(at: address), let text = library.text(of: entry) else {
                return .entryTextLoaded(nil, problem: "\(address) is no longer in \((path as NSString).lastPathComponent); the library was changed")
            }
            return .entryTextLoaded(EntryText(address: address, path: path, original: text, text: text), problem: nil)
        } catch {
            return .entryTextLoaded(nil, problem: TerminalText.cleanedLine("\(error)"))
        }
    }
}
