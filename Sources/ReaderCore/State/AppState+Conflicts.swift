import BibModel
import Foundation

/// A synced library's conflicts in the reader: the built-in group Conflicts (shown while there
/// are some), a `!` on their rows, each field with both values in the details, and `C` to keep
/// mine, keep the remote's, or write another value.
extension AppState {
    /// The conflicts the remote's journal keeps arrived: the group, its count, the marks.
    mutating func conflictsLoaded(_ conflicts: [EntryConflict]) {
        editing.conflicts = conflicts
        var positions = Set<Int>()
        if let library {
            for conflict in conflicts {
                guard let entry = library.entry(at: conflict.conflict.address),
                      let position = library.positions(ofKey: entry.key).first(where: { library.entries[$0].occurrence == entry.occurrence })
                else { continue }
                positions.insert(position)
            }
        }
        editing.conflictPositions = positions
        groupCounts[.builtIn(.conflicts)] = positions.count
        rebuildGroupRows()
        if activeGroup == .builtIn(.conflicts) { refreshConflictsGroup() }
    }

    /// The members of the group Conflicts, in the list's sort.
    mutating func refreshConflictsGroup() {
        groupMembers = editing.conflictPositions.sorted()
        refreshVisible()
    }

    /// Whether the reference at `position` has a conflict (its row's `!`).
    func hasConflict(at position: Int) -> Bool {
        editing.conflictPositions.contains(position)
    }

    /// The field conflicts of the reference at `position`.
    func conflicts(at position: Int) -> [EntryConflict] {
        guard hasConflict(at: position), let entry = library?.entries[position] else { return [] }
        let address = entry.address.lowercased()
        return editing.conflicts.filter { $0.conflict.address.text.lowercased() == address }
    }

    /// `C`: the first conflicting field of the reference, to settle.
    mutating func chooseConflict(at position: Int) {
        let address = library?.entries[position].address ?? ""
        guard let first = conflicts(at: position).first(where: { $0.conflict.kind == .field && $0.conflict.field != nil }) else {
            message = StatusMessage(conflicts(at: position).isEmpty ? "\(address) has no conflict to resolve"
                : "\(address) was deleted on one machine and changed on the other; it was kept, and there is nothing to choose")
            return
        }
        screen.show(.editPrompt(.conflict(first)))
    }

    /// A key for the conflict chooser (`m`, `r`, `e`, Esc).
    mutating func handleConflictChoice(_ conflict: EntryConflict, action: Action?) -> [Effect] {
        screen.close(.editPrompt)
        switch action {
        case .keepMine: return resolve(conflict, .mine)
        case .keepRemote: return resolve(conflict, .theirs)
        case .editValue:
            screen.show(.editPrompt(.conflictValue(conflict, text: conflict.conflict.mine ?? "")))
        default:
            message = StatusMessage("The conflict was left as it is")
        }
        return []
    }

    /// Writes the choice (the shell settles it as `bibread conflicts resolve` does).
    mutating func resolve(_ conflict: EntryConflict, _ value: ConflictChoice.Value) -> [Effect] {
        guard let field = conflict.conflict.field else { return [] }
        message = StatusMessage("Resolving \(conflict.conflict.address) \(field)…")
        return [.editing(.resolveConflict(ConflictChoice(path: conflict.path, address: conflict.conflict.address, field: field,
                                                          value: value)))]
    }

    /// A conflict settled: the library is read again (a value may have been written), and so
    /// are the conflicts.
    mutating func conflictResolved(_ text: String, failed: Bool) -> [Effect] {
        message = StatusMessage(text, isError: failed)
        return failed ? [] : [.app(.reloadLibrary)]
    }

    /// Each conflicting field of the reference, both values: `year: here 4 · remote 5`.
    func conflictLines(at position: Int) -> [String] {
        conflicts(at: position).map { stored in
            let conflict = stored.conflict
            guard conflict.kind == .field, let field = conflict.field else {
                return "deleted on one machine, changed on the other: kept"
            }
            func shown(_ value: String?) -> String { value.map { TerminalText.cleanedLine($0) } ?? "(none)" }
            return "\(field): here \(shown(conflict.mine)) · remote \(shown(conflict.theirs))"
        }
    }
}
