import BibModel
import Foundation

/// The keys that edit the selected reference: `x` read/unread, `*` a rating, `e` a field, `E`
/// the whole entry in `$EDITOR`, `u` undo; and their prompts.
extension AppState {
    /// Field names offered by Tab in the field prompt besides the entry's own.
    static let commonFields = ["abstract", "author", "booktitle", "doi", "editor", "journal", "keywords", "note", "number",
                               "pages", "publisher", "title", "url", "volume", "year"]

    /// The lines at the top of the editor's file that say why the last try was refused.
    public static let editorNotePrefix = "% bibread: "

    /// An editing action of the library view.
    mutating func performEdit(_ action: Action) -> [Effect] {
        guard let library, let position = editTargetPosition else {
            message = StatusMessage("Select a reference first", isError: true)
            return []
        }
        let entry = library.entries[position]
        switch action {
        case .toggleRead:
            let isRead = conventions(of: entry.source.path)?.isRead(entry) ?? false
            return requestEdit([.markRead(!isRead)], command: isRead ? "mark unread" : "mark read")
        case .rate:
            screen.show(.editPrompt(.rating))
        case .editField:
            screen.show(.editPrompt(.fieldName("")))
        case .editEntry:
            message = StatusMessage("Opening \(entry.address) in the editor…")
            return [.editing(.loadEntryText(entry.entryAddress, path: entry.source.path))]
        case .undoEdit:
            return [.editing(.describeUndo(paths: library.files.map(\.source.path)))]
        case .resolveConflict:
            chooseConflict(at: position)
        default:
            break
        }
        return []
    }

    /// A key for an edit prompt.
    mutating func handleEditPrompt(_ key: Key) -> [Effect] {
        guard case .editPrompt(let prompt)? = screen.top else { return [] }
        let action = keymap.action(for: key, in: prompt.scope)
        switch prompt {
        case .rating:
            screen.close(.editPrompt)
            guard action == .rateNumbered, let number = keymap.number(of: key, for: .rateNumbered) else { return [] }
            return requestEdit([.rate(number - 1)], command: "rate \(number - 1)")
        case .removeField(let field):
            screen.close(.editPrompt)
            guard action == .yes else {
                message = StatusMessage("\(field) was left as it is")
                return []
            }
            return requestEdit([.removeField(field)], command: "set --unset \(field)")
        case .undo(let path, _):
            screen.close(.editPrompt)
            guard action == .yes else {
                message = StatusMessage("Nothing was undone")
                return []
            }
            message = StatusMessage("Undoing…")
            return [.editing(.undo(path: path))]
        case .conflict(let conflict):
            return handleConflictChoice(conflict, action: action)
        case .fieldName, .fieldValue, .conflictValue:
            return handleFieldPrompt(prompt, action: action, key: key)
        }
    }

    private mutating func handleFieldPrompt(_ prompt: EditPrompt, action: Action?, key: Key) -> [Effect] {
        var field = TextField(prompt.text ?? "")
        if action != .completeField, field.apply(action, key: key) {
            screen.close(.editPrompt)
            screen.show(.editPrompt(prompt.with(field.text)))
            return []
        }
        switch action {
        case .cancel:
            screen.close(.editPrompt)
        case .completeField:
            if case .fieldName(let typed) = prompt { complete(typed) }
        case .confirm:
            screen.close(.editPrompt)
            return answer(prompt)
        default:
            break
        }
        return []
    }

    /// Tab in the field prompt: the longest name that every field starting with the text shares.
    private mutating func complete(_ typed: String) {
        let own = selectedOwnFieldNames
        var seen = Set<String>()
        let names = (own + AppState.commonFields).filter { seen.insert($0.lowercased()).inserted }
        let matches = names.filter { $0.lowercased().hasPrefix(typed.lowercased()) }
        guard let first = matches.first else {
            message = StatusMessage("No field starts with '\(typed)'; Enter adds it as a new field")
            return
        }
        var common = first
        for other in matches.dropFirst() {
            while !other.lowercased().hasPrefix(common.lowercased()) { common.removeLast() }
        }
        let completed = common.count > typed.count ? common : typed
        screen.close(.editPrompt)
        screen.show(.editPrompt(.fieldName(matches.count == 1 ? first : completed)))
        message = matches.count > 1 ? StatusMessage(matches.joined(separator: "  ")) : nil
    }

    /// The names of the selected reference's own fields, as its file spells them.
    var selectedOwnFieldNames: [String] {
        guard let library, let position = editTargetPosition else { return [] }
        let entry = library.entries[position]
        return entry.fields.filter { !$0.isInherited }.map { entry.spelledName(of: $0) }
    }

    /// Enter in the field prompt: the name asks for the value (prefilled), the value is written.
    private mutating func answer(_ prompt: EditPrompt) -> [Effect] {
        guard let library, let position = editTargetPosition else { return [] }
        let entry = library.entries[position]
        switch prompt {
        case .fieldName(let typed):
            let name = typed.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { return [] }
            let spelled = selectedOwnFieldNames.first { $0.lowercased() == name.lowercased() } ?? name
            let own = entry.fields.first { !$0.isInherited && entry.name(of: $0) == spelled.lowercased() }
            screen.show(.editPrompt(.fieldValue(field: spelled, text: own.map { entry.rawText(of: $0) } ?? "")))
        case .fieldValue(let field, let text):
            if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                guard entry.fields.contains(where: { !$0.isInherited && entry.name(of: $0) == field.lowercased() }) else {
                    message = StatusMessage("\(field) is empty; nothing to change")
                    return []
                }
                screen.show(.editPrompt(.removeField(field)))
                return []
            }
            return requestEdit([.setField(field, to: text)], command: "set \(field)")
        case .conflictValue(let conflict, let text):
            return resolve(conflict, .other(text))
        default:
            break
        }
        return []
    }

    /// The entry as the user saved it in `$EDITOR`: refused with where it does not parse (the
    /// editor opens again on it), else its field differences become edits.
    mutating func entryEdited(_ text: EntryText, edited: String) -> [Effect] {
        let body = edited.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix(AppState.editorNotePrefix) }.joined(separator: "\n")
        guard !body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            message = StatusMessage("The file was emptied: \(text.address) was left as it was")
            return []
        }
        let parsed = EntryTextCheck(original: text.original, edited: body, fileName: text.fileName,
                                    headerLines: AppState.editorHeaderLines)
        switch parsed.outcome {
        case .refused(let problem):
            message = StatusMessage(problem, isError: true)
            return [.app(.editInEditor(EntryText(address: text.address, path: text.path, original: text.original, text: body,
                                                 problem: problem)))]
        case .unchanged:
            message = StatusMessage("\(text.address): nothing changed")
            return []
        case .edits(let edits):
            guard let library, let entry = library.entry(at: text.address),
                  let position = library.positions(ofKey: entry.key).first(where: { library.entries[$0].occurrence == entry.occurrence })
            else {
                message = StatusMessage("\(text.address) is no longer in the library", isError: true)
                return []
            }
            return requestEdit(edits, command: "edit", at: position)
        }
    }

    /// How many lines the note at the top of the editor's file takes (the problem, how to go on).
    static let editorHeaderLines = 2
}
