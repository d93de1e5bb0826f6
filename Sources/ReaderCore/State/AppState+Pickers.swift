import BibModel
import Foundation

/// The keywords prompt (`t`) and the static groups checklist (`+`) of the selected reference
/// (or the one read): each turns what the user chose into `EntryEdit`s for `requestEdit`.
extension AppState {
    /// The reference the pickers change: the one read, else the list's selection.
    var pickerTarget: Entry? {
        if let reading { return library?.entry(at: reading.address) }
        return selectedEntry
    }

    /// Why the reference's file cannot be edited (a Zotero export), said on the status line.
    /// Until the conventions are worked out the prompt opens, and the write refuses.
    private mutating func refusesEdits(_ entry: Entry) -> Bool {
        guard let refusal = fileConventions[entry.source.path]?.readOnlyRefusal(path: entry.source.path) else { return false }
        message = StatusMessage(refusal.message, isError: true)
        return true
    }

    /// Whether `requestEdit` still changes the reference a picker was opened for (the library
    /// may have been read again meanwhile, without it); says so when not.
    private mutating func stillTargets(_ address: EntryAddress) -> Bool {
        guard pickerTarget?.entryAddress != address else { return true }
        message = StatusMessage("\(address) is no longer selected (the library was read again); nothing was changed", isError: true)
        return false
    }

    // MARK: - Keywords

    mutating func openKeywordEditor() -> [Effect] {
        guard let entry = pickerTarget else {
            message = StatusMessage("Select a reference first")
            return []
        }
        guard !refusesEdits(entry) else { return [] }
        screen.keywordEditor = KeywordEditor(address: entry.entryAddress, current: entry.ownKeywords)
        return []
    }

    mutating func handleKeywordEditor(_ key: Key) -> [Effect] {
        guard var editor = screen.keywordEditor else { return [] }
        let action = keymap.action(for: key, in: .keywordEditor)
        switch action {
        case .cancel:
            screen.keywordEditor = nil
            return []
        case .complete, .completePrevious:
            editor.complete(forward: action == .complete, vocabulary: keywordVocabulary)
        case .confirm:
            switch editor.outcome() {
            case .nothing:
                screen.keywordEditor = nil
                return []
            case .problem(let text):
                editor.problem = text
            case .edits(let edits):
                screen.keywordEditor = nil
                guard stillTargets(editor.address) else { return [] }
                noteKeywordEdits(edits)
                return requestEdit(edits, command: editor.command(for: edits))
            }
        default:
            _ = editor.edit(action, key: key)
        }
        screen.keywordEditor = editor
        return []
    }

    /// Keeps the completion's words up to date with an edit made here (the library is read
    /// again later, and the vocabulary worked out anew then).
    private mutating func noteKeywordEdits(_ edits: [EntryEdit]) {
        guard let vocabulary = keywordVocabulary else { return }
        var added: [String] = [], removed: [String] = []
        for edit in edits {
            if case .addKeywords(let words) = edit { added += words }
            if case .removeKeywords(let words) = edit { removed += words }
        }
        keywordVocabulary = vocabulary.updated(adding: added, removing: removed)
    }

    // MARK: - Static groups

    mutating func openGroupPicker() -> [Effect] {
        guard let library, let entry = pickerTarget else {
            message = StatusMessage("Select a reference first")
            return []
        }
        switch StaticGroupMembership.of(entry, in: library, conventions: fileConventions[entry.source.path]) {
        case .failure(let error):
            message = StatusMessage(error.message, isError: true)
        case .success(let membership):
            screen.groupPicker = GroupPicker(address: entry.entryAddress, membership: membership)
        }
        return []
    }

    /// The rows of the checklist on screen (the overlay's height less its frame and title).
    var groupPickerRows: Int { GroupPickerOverlay.listRows(screenHeight: height) }

    mutating func handleGroupPicker(_ key: Key) -> [Effect] {
        guard var picker = screen.groupPicker else { return [] }
        let rows = groupPickerRows
        switch keymap.action(for: key, in: .groupPicker) {
        case .close:
            screen.groupPicker = nil
            return []
        case .toggleGroup: picker.toggle()
        case .moveDown: picker.move(by: 1, rows: rows)
        case .moveUp: picker.move(by: -1, rows: rows)
        case .pageDown: picker.move(by: max(1, rows - 1), rows: rows)
        case .pageUp: picker.move(by: -max(1, rows - 1), rows: rows)
        case .halfPageDown: picker.move(by: max(1, rows / 2), rows: rows)
        case .halfPageUp: picker.move(by: -max(1, rows / 2), rows: rows)
        case .moveFirst: picker.move(by: Int.min / 2, rows: rows)
        case .moveLast: picker.move(by: Int.max / 2, rows: rows)
        case .confirm:
            screen.groupPicker = nil
            let changes = picker.changes()
            if changes.isEmpty {
                message = StatusMessage("No group changed")
                return []
            }
            guard stillTargets(picker.address) else { return [] }
            var effects: [Effect] = []
            for change in changes { effects += requestEdit([change.edit], command: change.command) }
            return effects
        default:
            break
        }
        screen.groupPicker = picker
        return []
    }
}
