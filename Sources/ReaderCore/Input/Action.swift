/// Everything a key can do. The table in `ActionTable` gives each action its help text and
/// default keys, so the help screen, the key map and config.toml cannot disagree.
public enum Action: String, CaseIterable, Sendable {
    case moveDown = "move-down", moveUp = "move-up"
    case pageDown = "page-down", pageUp = "page-up"
    case halfPageDown = "half-page-down", halfPageUp = "half-page-up"
    case moveFirst = "first", moveLast = "last"
    case nextPane = "next-pane", previousPane = "previous-pane"
    case left, right
    case open, search
    case clearSearch = "clear-search"
    case cycleSort = "cycle-sort", reverseSort = "reverse-sort"
    case sync
    case reloadLibrary = "reload"
    case help, redraw, quit
    case nextPage = "next-page", previousPage = "previous-page"
    case goToPage = "go-to-page", toggleLayout = "toggle-layout", outline
    case searchDocument = "search-document", nextMatch = "next-match", previousMatch = "previous-match"
    case scrollLeft = "scroll-left", scrollRight = "scroll-right"
    case bookmarkPage = "bookmark-page", editNote = "edit-note"
    case back
    case showBookmarks = "bookmarks"
    case openBookmark = "open-bookmark", expandFolder = "expand-folder", collapseFolder = "collapse-folder"
    case newFolder = "new-folder", renameBookmark = "rename", deleteBookmark = "delete", importList = "import-list"
    case moveBookmark = "move-bookmark"
    case closeBookmarks = "close-bookmarks"
    case openWith = "open-with", copyLink = "copy-link"
    // Everywhere, and while work runs in the background
    case forceQuit = "force-quit", suspend
    case stopListening = "stop-listening", cancelTransfer = "cancel-transfer"
    // The search bar
    case keepSearch = "keep-search"
    case listDown = "list-down", listUp = "list-up", listPageDown = "list-page-down", listPageUp = "list-page-up"
    // Text fields: the search bar, the prompts, the note editor
    case deleteBackward = "delete-backward", clearLine = "clear-line", deleteWord = "delete-word"
    case confirm, cancel
    case saveNote = "save-note", newLine = "new-line", indent
    case deleteForward = "delete-forward"
    case cursorLeft = "cursor-left", cursorRight = "cursor-right", cursorUp = "cursor-up", cursorDown = "cursor-down"
    case lineStart = "line-start", lineEnd = "line-end"
    // Menus and questions
    case choose, chooseNumbered = "choose-numbered", close
    case nextIntention = "next-intention", previousIntention = "previous-intention"
    case yes, no
    // Keywords and static groups of a reference (issue 28, pickers)
    case editKeywords = "keywords", fileInGroups = "static-groups"
    case complete, completePrevious = "complete-previous"
    case toggleGroup = "toggle-group"
    // keys: editing the selected reference
    case toggleRead = "toggle-read", rate, editField = "edit-field", editEntry = "edit-entry", undoEdit = "undo-edit"
    case rateNumbered = "rate-numbered", completeField = "complete-field"
    case resolveConflict = "resolve-conflict", keepMine = "keep-mine", keepRemote = "keep-remote", editValue = "edit-value"
}
