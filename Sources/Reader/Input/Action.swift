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
}

/// Where an action applies: everywhere, in the library panes, or in the reading view.
public enum ActionScope: String, Sendable, CaseIterable {
    case navigation = "Moving"
    case browse = "Library"
    case reading = "Reading"
    case bookmarks = "Bookmarks"
}

/// One row of the action table.
public struct ActionDefinition: Sendable {
    public let action: Action
    public let scope: ActionScope
    public let help: String
    public let defaultKeys: [Key]
}

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
        .init(action: .showBookmarks, scope: .browse, help: "Bookmarks and reading lists", defaultKeys: [.character("b")]),
        .init(action: .openWith, scope: .browse, help: "Open with another app: PDF viewer, browser, clipboard, speech", defaultKeys: [.character("o")]),
        .init(action: .copyLink, scope: .browse, help: "Copy the reference's bibread:// link", defaultKeys: [.character("y")]),
        .init(action: .quit, scope: .browse, help: "Quit", defaultKeys: [.character("q"), .control("c")]),
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
        .init(action: .openBookmark, scope: .bookmarks, help: "Open the bookmark at its page; open or close a folder", defaultKeys: [.enter]),
        .init(action: .expandFolder, scope: .bookmarks, help: "Open a folder", defaultKeys: [.right, .character("l")]),
        .init(action: .collapseFolder, scope: .bookmarks, help: "Close a folder, or go to the folder above", defaultKeys: [.left, .character("h")]),
        .init(action: .newFolder, scope: .bookmarks, help: "New folder (inside the selected folder)", defaultKeys: [.character("a")]),
        .init(action: .renameBookmark, scope: .bookmarks, help: "Rename", defaultKeys: [.character("r")]),
        .init(action: .moveBookmark, scope: .bookmarks, help: "Move the selected bookmark (or folder) into a folder; new bookmarks from m go there too",
              defaultKeys: [.character("m")]),
        .init(action: .deleteBookmark, scope: .bookmarks, help: "Delete (asks first)", defaultKeys: [.character("d"), .delete]),
        .init(action: .importList, scope: .bookmarks, help: "Import a reading list: a file, an http(s) URL or a bibread:// link", defaultKeys: [.character("i")]),
        .init(action: .closeBookmarks, scope: .bookmarks, help: "Back to the library", defaultKeys: [.character("q"), .escape, .character("b")]),
    ]

    /// The definition of one action.
    public static func definition(of action: Action) -> ActionDefinition? {
        definitions.first { $0.action == action }
    }
}

/// Which action each key triggers, per scope: the defaults, with config.toml's rebindings.
public struct Keymap: Sendable {
    private var bindings: [ActionScope: [Key: Action]] = [:]
    private var keysByAction: [Action: [Key]] = [:]

    /// The default key map.
    public init() {
        for definition in ActionTable.definitions {
            keysByAction[definition.action] = definition.defaultKeys
        }
        rebuild()
    }

    /// Rebinds actions (config.toml `[keys]`): each listed action gets exactly the given keys.
    /// Returns one message per unknown action or key name, which are skipped.
    public mutating func rebind(_ overrides: [String: [String]]) -> [String] {
        var problems: [String] = []
        for (name, keyNames) in overrides.sorted(by: { $0.key < $1.key }) {
            guard let action = Action(rawValue: name) else {
                problems.append("unknown action '\(name)' in [keys] (known: \(Action.allCases.map(\.rawValue).joined(separator: ", ")))")
                continue
            }
            var keys: [Key] = []
            for keyName in keyNames {
                if let key = Key(name: keyName) {
                    keys.append(key)
                } else {
                    problems.append("unknown key '\(keyName)' for '\(name)' in [keys]")
                }
            }
            keysByAction[action] = keys
        }
        rebuild()
        return problems
    }

    private mutating func rebuild() {
        bindings = [:]
        for definition in ActionTable.definitions {
            for key in keysByAction[definition.action] ?? [] {
                bindings[definition.scope, default: [:]][key] = definition.action
            }
        }
    }

    /// The action a key triggers in a view: its own scope first, then navigation.
    public func action(for key: Key, in scope: ActionScope) -> Action? {
        bindings[scope]?[key] ?? bindings[.navigation]?[key]
    }

    /// The keys bound to an action, as shown in help.
    public func keys(for action: Action) -> [Key] {
        keysByAction[action] ?? []
    }
}
