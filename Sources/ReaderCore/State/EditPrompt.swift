/// A prompt of the library view that edits the selected reference.
public enum EditPrompt: Sendable, Equatable {
    /// `*`: one key, 0 (none) to 5.
    case rating
    /// `e`: which field (Tab completes from the entry's fields and common ones).
    case fieldName(String)
    /// `e`, then the field's new value (prefilled with the one it has).
    case fieldValue(field: String, text: String)
    /// An empty value: remove the field? (y/n)
    case removeField(String)
    /// `u`: undo bibread's last edit of the library, described? (y/n)
    case undo(path: String, description: String)
    /// `C`: keep mine, keep the library's (remote) value, or edit, for one conflicting field.
    case conflict(EntryConflict)
    /// `C`, then `e`: the value to write instead (prefilled with this machine's).
    case conflictValue(EntryConflict, text: String)

    /// The scope of the prompt's keys.
    var scope: ActionScope {
        switch self {
        case .rating: return .rating
        case .fieldName: return .fieldPrompt
        case .fieldValue, .conflictValue: return .prompt
        case .removeField, .undo: return .question
        case .conflict: return .conflictChoice
        }
    }

    /// The text typed, for the prompts that take text.
    var text: String? {
        switch self {
        case .fieldName(let text), .fieldValue(_, let text), .conflictValue(_, let text): return text
        case .rating, .removeField, .undo, .conflict: return nil
        }
    }

    func with(_ text: String) -> EditPrompt {
        switch self {
        case .fieldName: return .fieldName(text)
        case .fieldValue(let field, _): return .fieldValue(field: field, text: text)
        case .conflictValue(let conflict, _): return .conflictValue(conflict, text: text)
        case .rating, .removeField, .undo, .conflict: return self
        }
    }
}
