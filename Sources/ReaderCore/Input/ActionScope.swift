/// Where an action applies: a view (the library panes, the reading view, the bookmarks view),
/// an overlay or prompt over one, or everywhere. A key is looked up in the scope in force, then
/// in the scope it falls back to (`fallback`): the views and menus fall back to moving, the
/// search bar, prompts and the note editor to the text field's editing keys.
public enum ActionScope: String, Sendable, CaseIterable {
    case navigation = "Moving"
    case browse = "Library"
    case reading = "Reading"
    case bookmarks = "Bookmarks"
    case searchBar = "Search bar"
    case textField = "Text fields"
    case prompt = "Prompts"
    case noteEditor = "Note editor"
    case noteQuestion = "Note with changes, closing"
    case question = "Questions"
    // keys: editing
    case rating = "Rating"
    case fieldPrompt = "Field name"
    case conflictChoice = "Conflict"
    case chooser = "Several PDFs"
    case openWithMenu = "Open with"
    case outline = "Contents"
    // Keywords and static groups (issue 28, pickers)
    case keywordEditor = "Keywords"
    case groupPicker = "Static groups"
    case help = "Help"
    case listening = "Reading aloud"
    case transfer = "Downloading, syncing, importing"
    case everywhere = "Everywhere"

    /// The scope a key not bound here is looked up in next (nil: none).
    public var fallback: ActionScope? {
        switch self {
        case .browse, .reading, .bookmarks, .chooser, .openWithMenu, .outline, .help, .groupPicker: return .navigation
        case .searchBar, .prompt, .noteEditor, .keywordEditor: return .textField
        case .fieldPrompt: return .prompt
        case .rating, .conflictChoice: return nil
        case .navigation, .everywhere, .listening, .transfer, .textField, .noteQuestion, .question: return nil
        }
    }

    /// This scope and the ones it falls back to, in the order a key is looked up.
    public var chain: [ActionScope] {
        var scopes = [self]
        while let next = scopes[scopes.count - 1].fallback { scopes.append(next) }
        return scopes
    }

    /// Whether the scope is a view's (the help gives each of its keys a row; the overlays'
    /// and prompts' keys are listed in a paragraph each).
    public var isView: Bool { [.navigation, .browse, .reading, .bookmarks].contains(self) }

    /// What a key bound to no action in the scope's chain does: nothing, or what the scope
    /// says (shown under the scope's keys in help).
    public var otherKeys: String? {
        switch self {
        case .textField: return "other characters are typed"
        case .help: return "other keys close it"
        case .noteQuestion: return "other keys ask again"
        case .keywordEditor: return "type word to add it, -word to remove it, \"two words\" in quotes, several separated by spaces or commas"
        default: return nil
        }
    }
}
