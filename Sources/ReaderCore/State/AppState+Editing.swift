import BibModel
import Foundation

/// The reader's edits: the change is shown at once (the entry's fields as the file's
/// conventions give them, its mark, the Unread count), written in the background one edit at a
/// time, confirmed on the status line once durable, and put back if the write fails.
extension AppState {
    /// Applies `edits` to the reference being read, else the one selected in the list: shows
    /// the change at once and returns the effect that writes it. `command` names the edit in
    /// the file's history (`mark`, `tag`, `group add`), which `u` and `bibread undo` show.
    public mutating func requestEdit(_ edits: [EntryEdit], command: String) -> [Effect] {
        guard let position = editTargetPosition else {
            message = StatusMessage("Select a reference first", isError: true)
            return []
        }
        return requestEdit(edits, command: command, at: position)
    }

    /// Applies `edits` to the reference at `position` of the library (see `requestEdit(_:command:)`).
    mutating func requestEdit(_ edits: [EntryEdit], command: String, at position: Int) -> [Effect] {
        guard let library, library.entries.indices.contains(position) else { return [] }
        let entry = library.entries[position]
        guard let conventions = self.conventions(of: entry.source.path) else { return [] }
        let preview: EditPreview
        do {
            preview = try EditPreview(edits, on: entry, in: library, conventions: conventions)
        } catch {
            message = StatusMessage("Not changed: \(entry.address): \(error.message)", isError: true)
            return []
        }
        guard !preview.changes.isEmpty || preview.changesGroupComment else {
            message = StatusMessage("\(entry.address): already so; nothing to change")
            return []
        }
        let id = editing.nextID
        editing.nextID += 1
        var effects: [Effect] = []
        if !preview.changes.isEmpty {
            effects += show(entry.applying(preview.changes), at: position)
        }
        editing.inFlight.append(EditingState.InFlight(id: id, address: entry.entryAddress, position: position, before: entry,
                                                      changes: preview.changes))
        message = StatusMessage("Saving \(entry.address)…")
        let request = EditRequest(id: id, path: entry.source.path, address: entry.entryAddress, edits: edits,
                                  command: "\(command) \(entry.address)")
        return effects + [.editing(.write(request))]
    }

    /// The position in the library of the reference an edit is for: the one being read, else
    /// the list's selection.
    var editTargetPosition: Int? {
        guard let library else { return nil }
        if let reading = screen.reading {
            guard let entry = library.entry(at: reading.address) else { return nil }
            return library.positions(ofKey: entry.key).first { library.entries[$0].occurrence == entry.occurrence }
        }
        guard listCursor.selected < visible.count else { return nil }
        return visible[listCursor.selected]
    }

    /// Whose conventions the library file at `path` follows (worked out once per library).
    mutating func conventions(of path: String) -> LibraryConventions? {
        if editing.conventions == nil, let library { editing.conventions = LibraryConventions.byPath(of: library) }
        return editing.conventions?[path]
    }

    /// Puts an edited entry in its place and updates what depends on it at once: its ✓, the
    /// Unread count and, when Unread is shown, its members.
    mutating func show(_ edited: Entry, at position: Int) -> [Effect] {
        guard let before = library?.entries[position], library?.replaceEntry(at: position, with: edited) == true,
              let conventions = self.conventions(of: edited.source.path) else { return [] }
        let (wasRead, isRead) = (conventions.isRead(before), conventions.isRead(edited))
        if var shown = marks, shown.indices.contains(position) {
            if isRead { shown[position].insert(.read) } else { shown[position].remove(.read) }
            marks = shown
        }
        if wasRead != isRead {
            let unread = GroupID.builtIn(.unread)
            if let count = groupCounts[unread] { groupCounts[unread] = max(0, count + (isRead ? -1 : 1)) }
            if activeGroup == unread, var members = groupMembers {
                if isRead {
                    members.removeAll { $0 == position }
                } else if !members.contains(position) {
                    members.insert(position, at: members.firstIndex { $0 > position } ?? members.count)
                }
                groupMembers = members
                refreshVisible()
            }
        }
        return [.editing(.showEdited(EditedEntry(position: position, entry: edited)))]
    }

    /// The outcome of an edit's write, or of `u` and `E`.
    mutating func updateEditing(_ event: Event) -> [Effect] {
        switch event {
        case .editSaved(let saved):
            return editSaved(saved)
        case .editFailed(let id, let text):
            return editFailed(id, text)
        case .undoDescribed(let path, let text):
            guard let path else {
                message = StatusMessage(text, isError: true)
                return []
            }
            screen.show(.editPrompt(.undo(path: path, description: text)))
            return []
        case .undoFinished(let text, let failed):
            message = StatusMessage(text, isError: failed)
            guard !failed else { return [] }
            return reloadAfterWrites()
        case .entryTextLoaded(let text, let problem):
            guard let text else {
                message = StatusMessage(problem ?? "The entry could not be read", isError: true)
                return []
            }
            return [.app(.editInEditor(text))]
        case .conflictsLoaded(let conflicts):
            conflictsLoaded(conflicts)
            return []
        case .conflictResolved(let text, let failed):
            return conflictResolved(text, failed: failed)
        case .entryTextEdited(let text, let edited, let problem):
            guard let edited else {
                message = StatusMessage(problem ?? "The editor did not run", isError: true)
                return []
            }
            return entryEdited(text, edited: edited)
        default:
            return []
        }
    }

    private mutating func editSaved(_ saved: EditSaved) -> [Effect] {
        guard let index = editing.inFlight.firstIndex(where: { $0.id == saved.id }) else { return [] }
        let edit = editing.inFlight.remove(at: index)
        var effects: [Effect] = []
        if saved.changedElsewhere || saved.changedGroup {
            editing.reloadWhenWritten = true
        } else if let position = edit.position, let current = library?.entries[position], saved.wrote {
            // What the file has now: the modification date, too.
            effects += show(current.applying(saved.changes), at: position)
        }
        if saved.wrote {
            message = StatusMessage("Saved: \(edit.address): " + saved.summary.joined(separator: "; "))
            effects += refreshAfterEdit(saved.changes, path: library?.entry(at: edit.address)?.source.path)
        } else {
            message = StatusMessage("\(edit.address): already so; nothing to change")
        }
        return effects + whenWritten()
    }

    private mutating func editFailed(_ id: Int, _ text: String) -> [Effect] {
        guard let index = editing.inFlight.firstIndex(where: { $0.id == id }) else { return [] }
        let failed = editing.inFlight.remove(at: index)
        message = StatusMessage("Not saved: \(failed.address): \(text)", isError: true)
        var effects: [Effect] = []
        if let position = failed.position, var entry = failed.before {
            // Put back the entry before it, with the edits after it still being written.
            for later in editing.inFlight.indices where editing.inFlight[later].position == position {
                editing.inFlight[later].before = entry
                entry = entry.applying(editing.inFlight[later].changes)
            }
            effects += show(entry, at: position)
        }
        return effects + whenWritten()
    }

    /// What waited for the edits to be written: reading the library again, quitting.
    private mutating func whenWritten() -> [Effect] {
        guard !editing.isWriting else { return [] }
        if editing.quitWhenWritten {
            isQuitting = true
            return [.app(.saveSession), .app(.quit)]
        }
        return editing.reloadWhenWritten ? reloadAfterWrites() : []
    }

    /// Reads the library again (another program's change, or an undo), keeping the message.
    private mutating func reloadAfterWrites() -> [Effect] {
        editing.reloadWhenWritten = false
        guard !editing.isWriting else {
            editing.reloadWhenWritten = true
            return []
        }
        return [.app(.reloadLibrary)]
    }

    /// Counts and members that other fields than the read flag and rating may change.
    private mutating func refreshAfterEdit(_ changes: [FieldChange], path: String?) -> [Effect] {
        guard let path, let conventions = self.conventions(of: path) else { return [] }
        let quiet = Set([conventions.readField, conventions.ratingField, conventions.modificationDateField].map { $0.lowercased() })
        guard changes.contains(where: { !quiet.contains($0.name.lowercased()) }) else { return [] }
        var effects: [Effect] = [.library(.countGroups(countableGroups)), .library(.buildSearchIndex)]
        if activeGroup != .all, activeGroup.builtIn?.isTheReaders != true { effects.append(.library(.computeGroupMembers(activeGroup))) }
        return effects
    }

    /// `q` while edits are written: quit once they are.
    mutating func quitAfterWrites() -> [Effect]? {
        guard editing.isWriting else { return nil }
        editing.quitWhenWritten = true
        let count = editing.inFlight.count
        message = StatusMessage("Saving \(count) edit\(count == 1 ? "" : "s") before quitting…")
        return [.app(.saveSession)]
    }

    /// A library read again: the edits still being written keep their write, but their
    /// positions are the old library's.
    mutating func forgetEditPositions() {
        editing.conventions = nil
        for index in editing.inFlight.indices {
            editing.inFlight[index].position = nil
            editing.inFlight[index].before = nil
        }
    }
}
