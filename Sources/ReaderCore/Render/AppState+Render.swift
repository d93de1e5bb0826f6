import BibModel

extension AppState {
    /// Draws the whole state into a screen buffer (pure: the same state gives the same cells).
    public func render() -> ScreenBuffer {
        var screen = ScreenBuffer(width: width, height: height)
        guard width >= 20, height >= 6 else {
            screen.write("Window too small", x: 0, y: 0)
            return screen
        }
        if library == nil {
            WelcomeScreen.draw(into: &screen)
        } else {
            switch self.screen.mode {
            case .reading(let view, _):
                ReadingView.draw(view, state: self, into: &screen)
            case .bookmarks(let view):
                BookmarksView.draw(view, state: self, into: &screen)
            case .library:
                let layout = Layout(width: width, height: height, focus: focus)
                if let rect = layout.groups { GroupsPane.draw(self, in: rect, into: &screen) }
                if let rect = layout.list { ListPane.draw(self, in: rect, into: &screen) }
                if let rect = layout.details { DetailsPane.draw(self, in: rect, into: &screen) }
                drawSeparators(layout, into: &screen)
                SearchBar.draw(self, in: layout.searchBar, into: &screen)
                StatusLine.draw(self, in: layout.status, into: &screen)
            }
        }
        for overlay in self.screen.overlays { draw(overlay, into: &screen) }
        return screen
    }

    /// Draws one overlay over what is drawn so far. The prompts are drawn by their view, in its
    /// prompt line (the message line gives way to them).
    private func draw(_ overlay: Overlay, into screen: inout ScreenBuffer) {
        switch overlay {
        case .help: HelpOverlay.draw(self, into: &screen)
        case .openWith(let menu): OpenWithOverlay.draw(menu, into: &screen)
        case .chooser(let chooser): ChooserOverlay.draw(chooser, state: self, into: &screen)
        case .reloadQuestion: ReloadQuestionOverlay.draw(self, into: &screen)
        case .syncQuitQuestion(let remote): SyncQuitQuestionOverlay.draw(remote: remote, self, into: &screen)
        case .outline(let cursor):
            if let view = reading, let outline = view.info?.outline { ReadingView.drawOutline(outline, cursor: cursor, view: view, into: &screen) }
        case .noteEditor(let editor):
            NoteEditorOverlay.draw(editor, pageName: AppState.pageName(editor.page, info: reading?.info), into: &screen)
        case .importQuestion(let pending): BookmarksView.drawNotesQuestion(pending, into: &screen)
        case .keywordEditor(let editor): KeywordEditorOverlay.draw(editor, state: self, into: &screen)
        case .groupPicker(let picker): GroupPickerOverlay.draw(picker, state: self, into: &screen)
        case .editPrompt(let prompt): EditPromptLine.draw(prompt, state: self, into: &screen)
        case .readingPrompt, .bookmarksPrompt: break
        }
    }

    /// Vertical lines between side-by-side panes.
    private func drawSeparators(_ layout: Layout, into screen: inout ScreenBuffer) {
        let style = Style(.border)
        for rect in [layout.list, layout.details].compactMap({ $0 }) where rect.x > 0 {
            // Only where the pane to the left ends right before it.
            let leftEnds = [layout.groups, layout.list].compactMap { $0 }.contains { $0.x + $0.width == rect.x - 1 && $0.y <= rect.y }
            guard leftEnds else { continue }
            for row in rect.y..<(rect.y + rect.height) { screen.write("│", x: rect.x - 1, y: row, style: style) }
        }
    }

    /// A pane's title row: bold when focused.
    static func drawTitle(_ title: String, right: String = "", focused: Bool, in rect: Rect, into screen: inout ScreenBuffer) {
        let style = Style(focused ? .title : .header, bold: focused)
        screen.fill(x: rect.x, y: rect.y, width: rect.width, height: 1, style: style)
        let rightWidth = DisplayWidth.of(right)
        let room = rect.width - 1 - (right.isEmpty ? 0 : rightWidth + 1)
        screen.write(DisplayWidth.truncate(title, to: max(0, room)), x: rect.x + 1, y: rect.y, style: style)
        if !right.isEmpty && rightWidth + 2 <= rect.width {
            screen.write(right, x: rect.x + rect.width - rightWidth - 1, y: rect.y, style: style)
        }
    }

    /// The style of a selected row: strong when its pane has the focus.
    func selectionStyle(focused: Bool) -> Style {
        Style(focused && !searchFocused ? .selection : .selectionUnfocused)
    }
}
