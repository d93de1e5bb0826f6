import ArgumentParser
import BibModel
import BibreadServices
import Foundation
import Reader
import ReaderCore

/// `bibread-dev edit-latency LIB`: the reader's edit benchmark. On a copy of the library, it
/// drives the reader's core as the loop does: `x` toggles a reference's read flag (`update`, the
/// edited entry handed to the background work, `render`), then the edit is written as the shell
/// writes it (`LibraryEditing`: the file read, edited, checked, renamed) and its outcome applied.
/// It times key → a screen showing the change, and key → the write durable.
struct EditLatencyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit-latency",
        abstract: "Time the reader's edits on a library: key to screen, key to disk (benchmark).",
        discussion: """
        Works on a copy of the library in a temporary folder (the library is left as it is). \
        Goals (issue 28): on screen in 50 ms or less, on disk in 1 s or less, on the 51k-entry \
        benchmark library.
        """)

    @Argument(help: ArgumentHelp("A BibTeX file (BibDesk's or JabRef's conventions; a Zotero export is read-only).",
                                 valueName: "library.bib"))
    var library: String

    @Option(help: "How many times to toggle the read flag.")
    var rounds = 20

    @Option(help: "The reference to edit (default: the first one listed).")
    var key: String?

    func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bibread-edit-latency-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent((library as NSString).lastPathComponent).path
        try FileManager.default.copyItem(atPath: library, toPath: copy)

        let clock = ContinuousClock()
        let loadStart = clock.now
        let (loaded, failures) = LibraryLoader.load(paths: [copy])
        guard failures.isEmpty else { throw ValidationError(failures.map { "\($0)" }.joined(separator: "; ")) }
        var state = AppState(library: loaded, paths: [copy], width: 160, height: 50)
        state.groups = GroupCatalog.savedGroups(of: loaded, synced: false)
        let work = BackgroundWork(library: loaded, groups: state.groups, fullTextURL: nil)
        Self.settle(&state, state.start(), work: work)
        let loadTime = clock.now - loadStart
        if let key {
            guard let row = state.visible.firstIndex(where: { loaded.entries[$0].key == key }) else {
                throw ValidationError("no reference '\(key)' in \(library)")
            }
            state.listCursor.selected = row
        }
        let editing = LibraryEditing(writer: LibraryFileWriter(state: folder.appendingPathComponent("state")), environment: [:])

        var toScreen: [Duration] = []
        var toDisk: [Duration] = []
        for _ in 0..<rounds {
            let marksBefore = state.render().text.filter { $0 == "✓" }.count
            let start = clock.now
            let effects = state.update(.key(.character("x")))
            var request: EditRequest?
            for effect in effects {
                if case .editing(.showEdited(let edited)) = effect { work.replaceEntry(at: edited.position, with: edited.entry) }
                if case .editing(.write(let asked)) = effect { request = asked }
            }
            let screen = state.render()
            toScreen.append(clock.now - start)
            guard let request else { throw ValidationError(state.message?.text ?? "x asked for no write") }
            guard abs(screen.text.filter({ $0 == "✓" }).count - marksBefore) == 1 else {
                throw ValidationError("the screen after x does not show the ✓ changed")
            }
            let outcome = try editing.apply(request.edits, to: request.address, in: request.path, command: request.command)
            _ = state.update(.editSaved(EditSaved(id: request.id, summary: outcome.result.summary, changes: outcome.result.changes,
                                                  wrote: outcome.write?.wrote ?? false, changedElsewhere: false)))
            toDisk.append(clock.now - start)
            guard state.message?.text.hasPrefix("Saved: ") == true else { throw ValidationError(state.message?.text ?? "not saved") }
        }
        let entry = state.selectedEntry.map { "\($0.address)" } ?? "?"
        DevConsole.print("library: \(Self.format(Double(loaded.entries.count))) references, loaded and worked out in \(Self.milliseconds(loadTime)); edited \(entry) \(rounds) times")
        DevConsole.print("key → screen: \(Self.summary(toScreen))")
        DevConsole.print("key → on disk (written, re-read, renamed): \(Self.summary(toDisk))")
    }

    /// Performs the library's effects inline, applying what they report, until none is left
    /// (the groups, counts, marks and sort a reader shows once started).
    static func settle(_ state: inout AppState, _ effects: [Effect], work: BackgroundWork) {
        var pending = effects
        while !pending.isEmpty {
            let effect = pending.removeFirst()
            guard case .library(let library) = effect else { continue }
            var events: [Event] = []
            work.perform(library) { events.append($0) }
            for event in events { pending += state.update(event) }
        }
    }

    static func summary(_ durations: [Duration]) -> String {
        let sorted = durations.sorted()
        guard !sorted.isEmpty else { return "no rounds" }
        func percentile(_ fraction: Double) -> Duration { sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))] }
        return "p50 \(milliseconds(percentile(0.5))), p99 \(milliseconds(percentile(0.99))), max \(milliseconds(sorted[sorted.count - 1]))"
    }

    static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.1f ms", Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
    }

    static func format(_ value: Double) -> String { String(format: "%.0f", value) }
}
