/// The one table of actions: help text and default keys.
public enum ActionTable {
    public static let definitions: [ActionDefinition] = [
        .init(action: .moveDown, scope: .navigation, help: "Move down", defaultKeys: [.down, .character("j"), .control("n")]),
        .init(action: .moveUp, scope: .navigation, help: "Move up", defaultKeys: [.up, .character("k"), .control("p")]),
        .init(action: .pageDown, scope: .navigation, help: "Page down", defaultKeys: [.pageDown, .control("f")]),
        .init(action: .pageUp, scope: .navigation, help: "Page up", defaultKeys: [.pageUp, .control("b")]),
        .init(action: .halfPageDown, scope: .navigation, help: "Half a page down", defaultKeys: [.control("d")]),
        .init(action: .halfPageUp, scope: .navigation, help: "Half a page up", defaultKeys: [.control("u")]),
        .init(action: .moveFirst, scope: .navigation, help: "Go to the first line", defaultKeys: [.home, .character("g")]),
        .init(action: .moveLast, scope: .navigation, help: "Go to the last line", defaultKeys: [.end, .character("G")]),
        .init(action: .redraw, scope: .navigation, help: "Redraw the screen", defaultKeys: [.control("l")]),
        .init(action: .help, scope: .navigation, help: "Show or hide this help", defaultKeys: [.character("?"), .function(1)]),
        .init(action: .nextPane, scope: .browse, help: "Next pane", defaultKeys: [.tab]),
        .init(action: .previousPane, scope: .browse, help: "Previous pane", defaultKeys: [.backTab]),
        .init(action: .left, scope: .browse, help: "Collapse a group, or go to the pane on the left", defaultKeys: [.left, .character("h")]),
        .init(action: .right, scope: .browse, help: "Expand a group, or go to the pane on the right", defaultKeys: [.right, .character("l")]),
        .init(action: .open, scope: .browse, help: "Show the group / read the reference's PDF", defaultKeys: [.enter]),
        .init(action: .search, scope: .browse, help: "Search (filters as you type)", defaultKeys: [.character("/")]),
        .init(action: .clearSearch, scope: .browse, help: "Clear the search", defaultKeys: [.escape]),
        .init(action: .cycleSort, scope: .browse, help: "Sort by the next column", defaultKeys: [.character("s")]),
        .init(action: .reverseSort, scope: .browse, help: "Reverse the sort", defaultKeys: [.character("S")]),
        .init(action: .sync, scope: .browse, help: "Sync from the remote: the .bib, and the PDFs of the group shown", defaultKeys: [.function(5)]),
        .init(action: .reloadLibrary, scope: .browse, help: "Reload the library from disk (asks first)", defaultKeys: [.character("R")]),
        .init(action: .showBookmarks, scope: .browse, help: "Bookmarks and reading lists", defaultKeys: [.character("b")]),
        .init(action: .openWith, scope: .browse, help: "Open with another app: PDF viewer, browser, clipboard, speech", defaultKeys: [.character("o")]),
        .init(action: .copyLink, scope: .browse, help: "Copy the reference's bibread:// link", defaultKeys: [.character("y")]),
        .init(action: .quit, scope: .browse, help: "Quit", defaultKeys: [.character("q"), .control("c")]),
        // Keywords and static groups of the selected reference (issue 28, pickers)
        .init(action: .editKeywords, scope: .browse, help: "Keywords: add (word) and remove (-word), Tab completes", defaultKeys: [.character("t")]),
        .init(action: .fileInGroups, scope: .browse, help: "File into static groups / take out of them (a checklist)", defaultKeys: [.character("+")]),
        // keys: editing the selected reference (written to its .bib in its own conventions)
        .init(action: .toggleRead, scope: .browse, help: "Mark read / unread", defaultKeys: [.character("x")]),
        .init(action: .rate, scope: .browse, help: "Rate: * then 0 (none) to 5", defaultKeys: [.character("*")]),
        .init(action: .editField, scope: .browse, help: "Edit a field (Tab completes its name)", defaultKeys: [.character("e")]),
        .init(action: .editEntry, scope: .browse, help: "Edit the whole entry in $EDITOR", defaultKeys: [.character("E")]),
        .init(action: .undoEdit, scope: .browse, help: "Undo the last edit of the library (asks first)", defaultKeys: [.character("u")]),
        .init(action: .resolveConflict, scope: .browse, help: "Resolve a sync's conflict: keep mine or the remote's, or edit",
              defaultKeys: [.character("C")]),
        .init(action: .nextPage, scope: .reading, help: "Next page", defaultKeys: [.character("]")]),
        .init(action: .previousPage, scope: .reading, help: "Previous page", defaultKeys: [.character("[")]),
        .init(action: .goToPage, scope: .reading, help: "Go to a page number or label (xii), then Enter", defaultKeys: [.character(":")]),
        .init(action: .outline, scope: .reading, help: "Table of contents: jump to a section", defaultKeys: [.character("c")]),
        .init(action: .openWith, scope: .reading, help: "Open with another app (at this page), read aloud, copy", defaultKeys: [.character("o")]),
        .init(action: .copyLink, scope: .reading, help: "Copy the link to this page", defaultKeys: [.character("y")]),
        .init(action: .searchDocument, scope: .reading, help: "Search the document", defaultKeys: [.character("/")]),
        .init(action: .nextMatch, scope: .reading, help: "Next match", defaultKeys: [.character(">")]),
        .init(action: .previousMatch, scope: .reading, help: "Previous match", defaultKeys: [.character("<")]),
        .init(action: .bookmarkPage, scope: .reading, help: "Bookmark this page (again: remove the bookmark)", defaultKeys: [.character("m")]),
        .init(action: .editNote, scope: .reading, help: "Write this page's note (C-s saves, Esc cancels)", defaultKeys: [.character("n")]),
        .init(action: .toggleLayout, scope: .reading, help: "Reflowed text / the page's physical layout", defaultKeys: [.character("t")]),
        .init(action: .scrollLeft, scope: .reading, help: "Scroll left (layout)", defaultKeys: [.left, .character("h")]),
        .init(action: .scrollRight, scope: .reading, help: "Scroll right (layout)", defaultKeys: [.right, .character("l")]),
        .init(action: .back, scope: .reading, help: "Back to the library", defaultKeys: [.character("q"), .escape]),
        // Static groups of the reference read (issue 28, pickers; its keywords are t in the library: t here is the layout)
        .init(action: .fileInGroups, scope: .reading, help: "File this reference into static groups / take it out", defaultKeys: [.character("+")]),
        // keys: editing the reference being read
        .init(action: .toggleRead, scope: .reading, help: "Mark the paper read / unread", defaultKeys: [.character("x")]),
        .init(action: .openBookmark, scope: .bookmarks, help: "Open the bookmark at its page; open or close a folder", defaultKeys: [.enter]),
        .init(action: .expandFolder, scope: .bookmarks, help: "Open a folder", defaultKeys: [.right, .character("l")]),
        .init(action: .collapseFolder, scope: .bookmarks, help: "Close a folder, or go to the folder above", defaultKeys: [.left, .character("h")]),
        .init(action: .newFolder, scope: .bookmarks, help: "New folder (inside the selected folder)", defaultKeys: [.character("a")]),
        .init(action: .renameBookmark, scope: .bookmarks, help: "Rename", defaultKeys: [.character("r")]),
        .init(action: .moveBookmark, scope: .bookmarks, help: "Move the selection into a folder; m files new bookmarks there too",
              defaultKeys: [.character("m")]),
        .init(action: .deleteBookmark, scope: .bookmarks, help: "Delete (asks first)", defaultKeys: [.character("d"), .delete]),
        .init(action: .importList, scope: .bookmarks, help: "Import a reading list: a file, an http(s) URL or a bibread:// link", defaultKeys: [.character("i")]),
        .init(action: .closeBookmarks, scope: .bookmarks, help: "Back to the library", defaultKeys: [.character("q"), .escape, .character("b")]),
        // The search bar, while it has the cursor
        .init(action: .keepSearch, scope: .searchBar, help: "keep the filter", defaultKeys: [.enter]),
        .init(action: .clearSearch, scope: .searchBar, help: "clear it", defaultKeys: [.escape]),
        .init(action: .listDown, scope: .searchBar, help: "move down the list", defaultKeys: [.down]),
        .init(action: .listUp, scope: .searchBar, help: "up", defaultKeys: [.up]),
        .init(action: .listPageDown, scope: .searchBar, help: "a page down", defaultKeys: [.pageDown]),
        .init(action: .listPageUp, scope: .searchBar, help: "a page up", defaultKeys: [.pageUp]),
        .init(action: .deleteWord, scope: .searchBar, help: "delete a word", defaultKeys: [.control("w")]),
        // Every text field: the search bar, the prompts, the note editor
        .init(action: .deleteBackward, scope: .textField, help: "delete back", defaultKeys: [.backspace]),
        .init(action: .clearLine, scope: .textField, help: "delete to the line's start", defaultKeys: [.control("u")]),
        // One-line prompts: go to page, search the document, folder names, import, passwords
        .init(action: .confirm, scope: .prompt, help: "answer", defaultKeys: [.enter]),
        .init(action: .cancel, scope: .prompt, help: "close (a password's: the PDF too)", defaultKeys: [.escape, .control("g")]),
        .init(action: .deleteWord, scope: .prompt, help: "delete a word", defaultKeys: [.control("w")]),
        // The page-note editor
        .init(action: .saveNote, scope: .noteEditor, help: "save", defaultKeys: [.control("s"), .function(2)]),
        .init(action: .cancel, scope: .noteEditor, help: "close (asks if changed)", defaultKeys: [.escape, .control("g")]),
        .init(action: .newLine, scope: .noteEditor, help: "new line", defaultKeys: [.enter]),
        .init(action: .indent, scope: .noteEditor, help: "four spaces", defaultKeys: [.tab]),
        .init(action: .deleteForward, scope: .noteEditor, help: "delete forward", defaultKeys: [.delete, .control("d")]),
        .init(action: .cursorLeft, scope: .noteEditor, help: "left", defaultKeys: [.left, .control("b")]),
        .init(action: .cursorRight, scope: .noteEditor, help: "right", defaultKeys: [.right, .control("f")]),
        .init(action: .cursorUp, scope: .noteEditor, help: "up", defaultKeys: [.up]),
        .init(action: .cursorDown, scope: .noteEditor, help: "down", defaultKeys: [.down]),
        .init(action: .lineStart, scope: .noteEditor, help: "line start", defaultKeys: [.home, .control("a")]),
        .init(action: .lineEnd, scope: .noteEditor, help: "line end", defaultKeys: [.end, .control("e")]),
        // The note editor's question before changes are lost
        .init(action: .saveNote, scope: .noteQuestion, help: "save (after C-c: and quit)", defaultKeys: [.control("s"), .function(2)]),
        .init(action: .cancel, scope: .noteQuestion, help: "after Esc: discard; after C-c: back", defaultKeys: [.escape, .control("g")]),
        .init(action: .confirm, scope: .noteQuestion, help: "back to the note", defaultKeys: [.enter]),
        // Questions: delete a bookmark, import a list's notes, reload the library
        .init(action: .yes, scope: .question, help: "yes", defaultKeys: [.character("y"), .character("Y")]),
        .init(action: .no, scope: .question, help: "no (deleting: any key but yes)", defaultKeys: [.character("n"), .character("N")]),
        .init(action: .cancel, scope: .question, help: "do nothing", defaultKeys: [.escape, .control("g")]),
        // keys: the rating prompt and the field prompt
        .init(action: .rateNumbered, scope: .rating, help: "that rating (0: none)", defaultKeys: (0...5).map { Key.character(Character(String($0))) }),
        .init(action: .cancel, scope: .rating, help: "close", defaultKeys: [.escape, .control("g")]),
        .init(action: .completeField, scope: .fieldPrompt, help: "complete the field name", defaultKeys: [.tab]),
        .init(action: .keepMine, scope: .conflictChoice, help: "keep mine (written, the next sync pushes it)", defaultKeys: [.character("m")]),
        .init(action: .keepRemote, scope: .conflictChoice, help: "keep the remote's (the library's)", defaultKeys: [.character("r")]),
        .init(action: .editValue, scope: .conflictChoice, help: "write another value", defaultKeys: [.character("e")]),
        .init(action: .cancel, scope: .conflictChoice, help: "leave it", defaultKeys: [.escape, .control("g")]),
        // Choosing one of a reference's PDFs
        .init(action: .choose, scope: .chooser, help: "open", defaultKeys: [.enter]),
        .init(action: .chooseNumbered, scope: .chooser, help: "open that one", defaultKeys: AnyDigit.keys),
        .init(action: .close, scope: .chooser, help: "close", defaultKeys: [.escape, .character("q")]),
        // The "open with" menu
        .init(action: .choose, scope: .openWithMenu, help: "run", defaultKeys: [.enter]),
        .init(action: .chooseNumbered, scope: .openWithMenu, help: "run that one", defaultKeys: AnyDigit.keys),
        .init(action: .nextIntention, scope: .openWithMenu, help: "next intention", defaultKeys: [.tab]),
        .init(action: .previousIntention, scope: .openWithMenu, help: "previous", defaultKeys: [.backTab]),
        .init(action: .close, scope: .openWithMenu, help: "close", defaultKeys: [.escape, .character("q")]),
        .init(action: .openWith, scope: .openWithMenu, help: "close", defaultKeys: [.character("o")]),
        // The table of contents
        .init(action: .choose, scope: .outline, help: "go there", defaultKeys: [.enter]),
        .init(action: .close, scope: .outline, help: "close", defaultKeys: [.escape, .character("q")]),
        .init(action: .outline, scope: .outline, help: "close", defaultKeys: [.character("c")]),
        // The keywords prompt (issue 28, pickers)
        .init(action: .confirm, scope: .keywordEditor, help: "apply", defaultKeys: [.enter]),
        .init(action: .cancel, scope: .keywordEditor, help: "close, changing nothing", defaultKeys: [.escape, .control("g")]),
        .init(action: .complete, scope: .keywordEditor, help: "complete the word from the library's keywords (again: the next one)", defaultKeys: [.tab]),
        .init(action: .completePrevious, scope: .keywordEditor, help: "the previous one", defaultKeys: [.backTab]),
        .init(action: .deleteWord, scope: .keywordEditor, help: "delete a word", defaultKeys: [.control("w")]),
        // The static groups checklist (issue 28, pickers)
        .init(action: .toggleGroup, scope: .groupPicker, help: "tick / untick", defaultKeys: [.character(" ")]),
        .init(action: .confirm, scope: .groupPicker, help: "apply the changes", defaultKeys: [.enter]),
        .init(action: .close, scope: .groupPicker, help: "close, changing nothing", defaultKeys: [.escape, .character("q")]),
        // While work runs in the background, and everywhere (these scopes take the key first)
        .init(action: .stopListening, scope: .listening, help: "stop (outside text fields)", defaultKeys: [.escape]),
        .init(action: .cancelTransfer, scope: .transfer, help: "stop the download, the sync or the import", defaultKeys: [.escape]),
        .init(action: .forceQuit, scope: .everywhere, help: "quit (a changed note asks first)", defaultKeys: [.control("c")]),
        .init(action: .suspend, scope: .everywhere, help: "suspend (fg resumes)", defaultKeys: [.control("z")]),
    ]

    /// The definitions of a scope, in the table's order.
    public static func definitions(in scope: ActionScope) -> [ActionDefinition] {
        definitions.filter { $0.scope == scope }
    }

    /// The definition of one action.
    public static func definition(of action: Action) -> ActionDefinition? {
        definitions.first { $0.action == action }
    }
}
