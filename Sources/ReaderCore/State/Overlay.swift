/// Something shown over a view that takes the keys while it is on top: the help, menus,
/// prompts, the note editor, questions.
public enum Overlay: Sendable, Equatable {
    /// The help screen, scrolled down `scroll` lines.
    case help(scroll: Int)
    /// The "open with" menu.
    case openWith(OpenWithMenuState)
    /// Which of a reference's PDFs to open.
    case chooser(FileChooser)
    /// `R`: reload the library from disk? (y/n)
    case reloadQuestion
    /// A prompt of the reading view: go to page, search, password, bookmark folder.
    case readingPrompt(ReadingPrompt)
    /// The document's table of contents, with its selection.
    case outline(ListCursor)
    /// The page-note editor.
    case noteEditor(NoteEditor)
    /// A prompt of the bookmarks view: import, new folder, rename, move, delete (y/n).
    case bookmarksPrompt(BookmarksPrompt)
    /// A reading list with page notes, waiting for the question whether to import them.
    case importQuestion(PendingImport)
    // Keywords and static groups of the selected reference (issue 28, pickers)
    /// `t`: the reference's keywords, a field to add and remove some, Tab's completion.
    case keywordEditor(KeywordEditor)
    /// `+`: the static groups of the reference's file, ticked where it is a member.
    case groupPicker(GroupPicker)
    // keys: editing the selected reference (rating, a field, remove it?, undo?)
    case editPrompt(EditPrompt)
    /// `q` while a sync runs: finish it in the background? (y/n; Esc stays)
    case syncQuitQuestion(remote: String)

    /// The scope of the overlay's keys.
    var scope: ActionScope {
        switch self {
        case .help: return .help
        case .openWith: return .openWithMenu
        case .chooser: return .chooser
        case .reloadQuestion, .importQuestion, .syncQuitQuestion: return .question
        case .readingPrompt: return .prompt
        case .outline: return .outline
        case .noteEditor(let editor): return editor.scope
        case .bookmarksPrompt(let prompt): return prompt.isQuestion ? .question : .prompt
        case .keywordEditor: return .keywordEditor
        case .groupPicker: return .groupPicker
        case .editPrompt(let prompt): return prompt.scope
        }
    }

    /// Whether the overlay belongs to no view (the help, the "open with" menu): it stays on
    /// top whichever view is under it. The others belong to the view they were opened over.
    var isGlobal: Bool {
        switch self {
        case .help, .openWith, .syncQuitQuestion: return true
        default: return false
        }
    }

    /// The view the overlay belongs to, when only one view has it (a chooser belongs to the
    /// view it was opened over; the global ones to none).
    var view: ScreenMode.Kind? {
        switch self {
        case .readingPrompt, .outline, .noteEditor: return .reading
        case .bookmarksPrompt, .importQuestion: return .bookmarks
        case .reloadQuestion, .keywordEditor, .editPrompt: return .library
        case .help, .openWith, .chooser, .groupPicker, .syncQuitQuestion: return nil
        }
    }

    /// The overlay's kind, to find it in the stack whatever it holds.
    var kind: Kind {
        switch self {
        case .help: return .help
        case .openWith: return .openWith
        case .chooser: return .chooser
        case .reloadQuestion: return .reloadQuestion
        case .readingPrompt: return .readingPrompt
        case .outline: return .outline
        case .noteEditor: return .noteEditor
        case .bookmarksPrompt: return .bookmarksPrompt
        case .importQuestion: return .importQuestion
        case .keywordEditor: return .keywordEditor
        case .groupPicker: return .groupPicker
        case .editPrompt: return .editPrompt
        case .syncQuitQuestion: return .syncQuitQuestion
        }
    }

    enum Kind: Sendable, Equatable {
        case help, openWith, chooser, reloadQuestion, readingPrompt, outline, noteEditor, bookmarksPrompt, importQuestion
        case keywordEditor, groupPicker
        case editPrompt
        case syncQuitQuestion
    }
}
