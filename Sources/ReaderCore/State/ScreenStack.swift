/// What is on screen, as one value: the view (`mode`) and the overlays over it, the last on
/// top. Keys go to the top overlay in force, else to the view; render draws the view, then the
/// overlays in order; the mouse asks the same. An overlay belongs to the view it was opened
/// over (a chooser over the library stays with the library while a PDF is read) except the
/// help and the "open with" menu, which stay on top of any view.
public struct ScreenStack: Sendable, Equatable {
    public private(set) var mode: ScreenMode = .library
    private var entries: [Entry] = []

    private struct Entry: Sendable, Equatable {
        var overlay: Overlay
        /// The view it was opened over; nil for the help and the "open with" menu.
        let owner: ScreenMode.Kind?
    }

    public init() {}

    /// The overlays in force over the view shown, bottom first: the view's own, then the
    /// help and the "open with" menu, which are above whatever a view opens meanwhile.
    public var overlays: [Overlay] {
        entries.filter { $0.owner == mode.kind }.map(\.overlay) + entries.filter { $0.owner == nil }.map(\.overlay)
    }

    /// The overlay that takes the keys, if any.
    public var top: Overlay? { overlays.last }

    /// The scope of the keys now: the top overlay's, else the view's.
    public var scope: ActionScope { top?.scope ?? mode.scope }

    /// Shows `overlay` on top, over the view it belongs to (a chooser: the view shown now; the
    /// help and the "open with" menu: any view); one of its kind already there is replaced
    /// where it is.
    mutating func show(_ overlay: Overlay) {
        if let index = entries.firstIndex(where: { $0.overlay.kind == overlay.kind }) {
            entries[index].overlay = overlay
        } else {
            entries.append(Entry(overlay: overlay, owner: overlay.isGlobal ? nil : overlay.view ?? mode.kind))
        }
    }

    /// Closes the overlay of a kind, if it is shown.
    mutating func close(_ kind: Overlay.Kind) {
        entries.removeAll { $0.overlay.kind == kind }
    }

    /// Whether an overlay of a kind is open (over any view).
    func isOpen(_ kind: Overlay.Kind) -> Bool {
        entries.contains { $0.overlay.kind == kind }
    }

    private func overlay(_ kind: Overlay.Kind) -> Overlay? {
        entries.first { $0.overlay.kind == kind }?.overlay
    }

    /// Replaces the overlay of `kind` by `overlay`, or closes it when nil.
    private mutating func set(_ kind: Overlay.Kind, _ overlay: Overlay?) {
        if let overlay { show(overlay) } else { close(kind) }
    }

    // MARK: - The views

    /// The reading view, while a PDF is read. Setting it opens the view over the one shown
    /// (the bookmarks view stays under it); nil closes it, with the overlays opened over it.
    public var reading: ReadingState? {
        get {
            if case .reading(let view, _) = mode { return view }
            return nil
        }
        set {
            switch (mode, newValue) {
            case (.reading(_, let under), let view?): mode = .reading(view, over: under)
            case (.bookmarks(let under), let view?): mode = .reading(view, over: under)
            case (.library, let view?): mode = .reading(view, over: nil)
            case (.reading(_, let under), nil):
                entries.removeAll { $0.owner == .reading }
                mode = under.map { .bookmarks($0) } ?? .library
            case (_, nil): break
            }
        }
    }

    /// The bookmarks view, shown or under a reading view. Setting it opens it over the library;
    /// nil closes it, with the overlays opened over it.
    public var bookmarks: BookmarksViewState? {
        get {
            switch mode {
            case .bookmarks(let view): return view
            case .reading(_, let under): return under
            case .library: return nil
            }
        }
        set {
            switch (mode, newValue) {
            case (.reading(let reading, _), let view): mode = .reading(reading, over: view)
            case (_, let view?): mode = .bookmarks(view)
            case (.bookmarks, nil):
                entries.removeAll { $0.owner == .bookmarks }
                mode = .library
            case (.library, nil): break
            }
        }
    }

    // MARK: - The overlays, by kind

    /// How far the help is scrolled, while it is shown.
    var helpScroll: Int? {
        get { if case .help(let scroll)? = overlay(.help) { return scroll } else { return nil } }
        set { set(.help, newValue.map { .help(scroll: $0) }) }
    }

    var openWith: OpenWithMenuState? {
        get { if case .openWith(let menu)? = overlay(.openWith) { return menu } else { return nil } }
        set { set(.openWith, newValue.map { .openWith($0) }) }
    }

    var chooser: FileChooser? {
        get { if case .chooser(let chooser)? = overlay(.chooser) { return chooser } else { return nil } }
        set { set(.chooser, newValue.map { .chooser($0) }) }
    }

    var readingPrompt: ReadingPrompt? {
        get { if case .readingPrompt(let prompt)? = overlay(.readingPrompt) { return prompt } else { return nil } }
        set { set(.readingPrompt, newValue.map { .readingPrompt($0) }) }
    }

    var outlineCursor: ListCursor? {
        get { if case .outline(let cursor)? = overlay(.outline) { return cursor } else { return nil } }
        set { set(.outline, newValue.map { .outline($0) }) }
    }

    var noteEditor: NoteEditor? {
        get { if case .noteEditor(let editor)? = overlay(.noteEditor) { return editor } else { return nil } }
        set { set(.noteEditor, newValue.map { .noteEditor($0) }) }
    }

    var bookmarksPrompt: BookmarksPrompt? {
        get { if case .bookmarksPrompt(let prompt)? = overlay(.bookmarksPrompt) { return prompt } else { return nil } }
        set { set(.bookmarksPrompt, newValue.map { .bookmarksPrompt($0) }) }
    }

    var pendingImport: PendingImport? {
        get { if case .importQuestion(let pending)? = overlay(.importQuestion) { return pending } else { return nil } }
        set { set(.importQuestion, newValue.map { .importQuestion($0) }) }
    }

    // Keywords and static groups (issue 28, pickers)

    var keywordEditor: KeywordEditor? {
        get { if case .keywordEditor(let editor)? = overlay(.keywordEditor) { return editor } else { return nil } }
        set { set(.keywordEditor, newValue.map { .keywordEditor($0) }) }
    }

    var groupPicker: GroupPicker? {
        get { if case .groupPicker(let picker)? = overlay(.groupPicker) { return picker } else { return nil } }
        set { set(.groupPicker, newValue.map { .groupPicker($0) }) }
    }
}
