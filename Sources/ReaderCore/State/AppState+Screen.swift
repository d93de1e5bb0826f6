extension AppState {
    /// The file chooser, while open.
    public var chooser: FileChooser? { screen.chooser }
    /// The "open with" menu, while open.
    public var openWith: OpenWithMenuState? { screen.openWith }
    /// The reading view's prompt, while open.
    public var readingPrompt: ReadingPrompt? { screen.readingPrompt }
    /// The page-note editor, while open.
    public var noteEditor: NoteEditor? { screen.noteEditor }
    /// The table of contents' selection, while it is shown.
    public var outlineCursor: ListCursor? { screen.outlineCursor }
    /// Whether the table of contents is shown.
    public var showingOutline: Bool { screen.outlineCursor != nil }
    /// Whether the help is shown.
    public var showingHelp: Bool { screen.helpScroll != nil }
    /// The scope of the keys now: the top overlay's, else the search bar's while it has the
    /// cursor, else the view's.
    public var keyScope: ActionScope {
        if screen.top == nil, case .library = screen.mode, searchFocused { return .searchBar }
        return screen.scope
    }

    /// Whether a text field has the keys (typing is not a command): the search bar, a prompt,
    /// the note editor.
    var isTyping: Bool {
        searchFocused || screen.isOpen(.readingPrompt) || screen.isOpen(.noteEditor) || screen.isOpen(.bookmarksPrompt)
            || screen.isOpen(.keywordEditor)
    }
}
