import BibModel
import BibreadValues
import Foundation

extension AppState {
    /// The work to start right after the first screen: everything that reads the whole library.
    public mutating func start() -> [Effect] {
        guard library != nil else { return [] }
        rebuildGroupRows()
        var effects: [Effect] = [.library(.loadFieldGroups), .library(.buildSearchIndex), .library(.computeMarks), .library(.computeSort(sort)), .bookmarks(.loadBookmarks),
                                 .fullText(.updateFullTextIndex)]
        effects.append(.library(.countGroups(countableGroups)))
        groupCounts[.builtIn(.recentlyRead)] = lastRead.count
        if activeGroup.builtIn?.isTransient == true && linkTargets == nil {
            // Restored from a session that saved it before they were never saved: it is gone.
            message = StatusMessage("The group \(activeGroup) was only for the session that opened its link; showing All")
            effects += activateGroup(.all)
        } else if activeGroup == .builtIn(.fromLink) {
            refreshLinkGroup()
        } else if activeGroup == .builtIn(.recentlyRead) {
            refreshRecentlyRead()
        } else if activeGroup != .all {
            effects.append(.library(.computeGroupMembers(activeGroup)))
        }
        return effects
    }

    /// Applies one event; returns the work to do outside (pure: no I/O, no clock).
    public mutating func update(_ event: Event) -> [Effect] {
        var effects = apply(event)
        // Snippets of what text: terms found, for the references on screen, when missing.
        if fullText != nil { effects += requestFullTextPages() }
        return effects
    }

    private mutating func apply(_ event: Event) -> [Effect] {
        switch event {
        case .key(let key):
            message = nil
            return handle(key)
        case .mouse(let mouse):
            return handle(mouse)
        case .resize(let newWidth, let newHeight):
            width = max(1, newWidth)
            height = max(1, newHeight)
            clampCursors()
            return [.app(.redrawAll)]
        case .groupsReady(let loaded):
            groups = loaded
            rebuildGroupRows()
            let uncounted = countableGroups.filter { groupCounts[$0] == nil }
            var effects: [Effect] = uncounted.isEmpty ? [] : [.library(.countGroups(uncounted))]
            // A group restored from the last session may only exist now, or not at all.
            if groupMembers == nil && activeGroup != .all && activeGroup.builtIn?.isTheReaders != true {
                if AppState.groupExists(activeGroup, in: groups) {
                    effects.append(.library(.computeGroupMembers(activeGroup)))
                } else {
                    message = StatusMessage("The group \(activeGroup) is gone; showing All")
                    effects += activateGroup(.all)
                }
            }
            return effects
        case .groupCounts(let counts):
            groupCounts.merge(counts) { _, new in new }
            return []
        case .groupMembers(let group, let members):
            guard group == activeGroup else { return [] }
            groupMembers = members
            refreshVisible()
            return []
        case .searchIndexReady(let index):
            searchIndex = index
            return searchText.isEmpty ? [] : applySearch()
        case .sortReady(let key, let rank):
            guard key == sort else { return [] }
            sortRank = rank
            refreshVisible()
            if awaitingFirstSort && pendingSelection == nil { listCursor = ListCursor() }
            awaitingFirstSort = false
            return []
        case .marksReady(let newMarks):
            marks = newMarks
            return []
        case .filesLocated(let located, let opening):
            fileLocations.merge(located) { _, new in new }
            guard let opening, let pending = openingOnceLocated, pending.address == opening,
                  let entry = library?.entry(at: opening) else { return [] }
            openingOnceLocated = nil
            return openEntry(entry, atPage: pending.page)
        case .documentOpened, .documentNeedsPassword, .pageText, .documentFailed, .searchResult:
            return updateReading(event)
        case .fetchProgress(let path, let bytes, let total):
            guard fetching?.path == path else { return [] }
            waitingForRemote = nil
            fetching?.bytes = bytes
            fetching?.total = total
            return []
        case .fetchFinished(let path, let local):
            guard let fetch = fetching, fetch.path == path else { return [] }
            fetching = nil
            waitingForRemote = nil
            guard reading == nil else {
                message = StatusMessage("\((path as NSString).lastPathComponent) is in the cache now")
                return []
            }
            var view = ReadingState(path: local, address: fetch.address, title: fetch.title)
            view.requestedPage = fetch.page
            screen.reading = view
            return [.document(.openDocument(path: local, password: nil)), .reading(.recordReading(fetch.address)), .library(.computeMarks),
                    .bookmarks(.loadNotes(citeKey(of: view)))]
        case .fetchFailed(let path, let text):
            guard fetching?.path == path else { return [] }
            fetching = nil
            waitingForRemote = nil
            message = StatusMessage(text, isError: true)
            return []
        case .syncProgress(let done, let total, let file):
            guard syncing != nil else { return [] }
            syncing = (done, total, file)
            waitingForRemote = nil
            return []
        case .remoteBusy(let text):
            guard syncing != nil || fetching != nil else { return [] }
            waitingForRemote = text
            return []
        case .syncFinished(let summary, let libraryChanged, let failed):
            syncing = nil
            waitingForRemote = nil
            message = StatusMessage(summary + (libraryChanged ? " · the library was read again" : ""), isError: failed)
            return libraryChanged ? [.app(.reloadLibrary)] : [.library(.computeMarks)]
        case .libraryReloaded(let reloaded):
            if reloadAsked {
                reloadAsked = false
                let count = reloaded.entries.count
                message = StatusMessage("Read the library again from disk: \(Count.format(count)) reference\(count == 1 ? "" : "s")")
            }
            return reload(reloaded)
        case .bookmarksLoaded, .bookmarkFailed, .notesLoaded, .readingListLoaded, .readingListProgress, .readingListFailed:
            return updateBookmarks(event)
        case .openWithReady, .handlerStarted, .handlerFinished, .listeningStopped:
            return updateOpenWith(event)
        case .fullTextResults(let results):
            guard results.terms == fullTextPending else { return [] }
            fullText = results
            fullTextPending = nil
            fullTextPagesPending = []
            return applySearch()
        case .fullTextPages(let terms, let pages):
            guard let results = fullText, results.terms == terms else { return [] }
            fullText = results.adding(pages: pages)
            fullTextPagesPending.subtract(pages.keys)
            return []
        case .fullTextFailed(let text):
            fullTextPending = nil
            message = StatusMessage(text, isError: true)
            return []
        case .indexProgress(let done, let total):
            indexing = IndexingState(done: done, total: total)
            return []
        case .indexFinished(let text):
            indexing = nil
            if let text { message = StatusMessage(text) }
            // New pages may answer the search shown.
            guard let terms = fullText?.terms ?? fullTextPending, !terms.isEmpty else { return [] }
            fullTextPending = terms
            return [.fullText(.searchFullText(terms))]
        case .readingRecorded(let key, let time):
            lastRead[key] = time
            groupCounts[.builtIn(.recentlyRead)] = lastRead.count
            if activeGroup == .builtIn(.recentlyRead) { refreshRecentlyRead() }
            return []
        case .tick:
            // Cheap: one query, and the tree is read again only when another bibread changed it.
            return library != nil ? [.bookmarks(.checkBookmarks)] : []
        case .terminate:
            isQuitting = true
            return [.app(.saveSession), .app(.quit)]
        }
    }

    /// Takes a library read again, keeping the group, the selected reference, the sort and the
    /// search; everything worked out from the old one is worked out anew.
    mutating func reload(_ reloaded: Library) -> [Effect] {
        pendingSelection = selectedEntry?.entryAddress ?? pendingSelection
        library = reloaded
        groups = GroupCatalog.savedGroups(of: reloaded, synced: librarySynced)
        groupCounts = [:]
        searchIndex = nil
        searchMatches = nil
        fullText = nil
        fullTextPending = nil
        sortRank = nil
        marks = nil
        screen.chooser = nil
        if activeGroup == .all {
            groupMembers = Array(reloaded.entries.indices)
        } else {
            groupMembers = nil
        }
        refreshVisible()
        return start()
    }

    // MARK: - Keys

    /// A key goes to what is on top: Ctrl-C (quit from anywhere) first, then the help or the
    /// "open with" menu, then (Esc) the app reading aloud unless a text field has the keys,
    /// then the top overlay of the view, else the view.
    private mutating func handle(_ key: Key) -> [Effect] {
        // The terminal is raw: Ctrl-C is a key, not SIGINT.
        if keymap.action(for: key, in: .everywhere) == .forceQuit { return quitFromAnywhere() }
        if let overlay = screen.top, overlay.isGlobal { return handle(key, on: overlay) }
        if listening != nil, !isTyping, keymap.action(for: key, in: .listening) == .stopListening {
            message = StatusMessage("Stopping reading aloud…")
            return [.handlers(.stopListening)]
        }
        return keepingReadingPosition {
            if let overlay = $0.screen.top { return $0.handle(key, on: overlay) }
            switch $0.screen.mode {
            case .library: return $0.handleLibrary(key)
            case .bookmarks: return $0.handleBookmarks(key)
            case .reading: return $0.handleReading(key)
            }
        }
    }

    /// A key for an overlay: each kind has its scope of keys and its one function.
    private mutating func handle(_ key: Key, on overlay: Overlay) -> [Effect] {
        switch overlay {
        case .help: return handleHelp(key)
        case .openWith: return handleOpenWith(key)
        case .chooser: return handleChooser(key)
        case .reloadQuestion: return handleReloadQuestion(key)
        case .readingPrompt: return handleReadingPrompt(key)
        case .outline: return handleOutline(key)
        case .noteEditor: return handleNoteEditor(key)
        case .bookmarksPrompt: return handleBookmarksPrompt(key)
        case .importQuestion: return handleImportQuestion(key)
        }
    }

    private mutating func handleLibrary(_ key: Key) -> [Effect] {
        if searchFocused { return handleSearchInput(key) }
        if keymap.action(for: key, in: .transfer) == .cancelTransfer {
            if let fetch = fetching {
                fetching = nil
                waitingForRemote = nil
                message = StatusMessage("Stopped downloading \((fetch.path as NSString).lastPathComponent); it resumes next time")
                return [.sync(.cancelFetch)]
            }
            if syncing != nil, searchText.isEmpty {
                message = StatusMessage("Stopping the sync…")
                return [.sync(.cancelSync)]
            }
        }
        guard let action = keymap.action(for: key, in: .browse) else {
            if case .character(let character) = key, library != nil {
                message = StatusMessage("'\(character)' does nothing here; press ? for help")
            }
            return []
        }
        return perform(action)
    }

    private mutating func perform(_ action: Action) -> [Effect] {
        switch action {
        case .quit:
            isQuitting = true
            return [.app(.saveSession), .app(.quit)]
        case .help:
            screen.show(.help(scroll: 0))
            return []
        case .redraw:
            return [.app(.redrawAll)]
        default:
            break
        }
        guard library != nil else { return [] }
        switch action {
        case .moveDown: return move(by: 1)
        case .moveUp: return move(by: -1)
        case .pageDown: return move(by: max(1, pageRows(focus) - 1))
        case .pageUp: return move(by: -max(1, pageRows(focus) - 1))
        case .halfPageDown: return move(by: max(1, pageRows(focus) / 2))
        case .halfPageUp: return move(by: -max(1, pageRows(focus) / 2))
        case .moveFirst: return move(by: Int.min / 2)
        case .moveLast: return move(by: Int.max / 2)
        case .nextPane: cyclePane(by: 1)
        case .previousPane: cyclePane(by: -1)
        case .left:
            if focus == .groups {
                collapseOrGoToParent()
            } else {
                focus = focus == .details ? .list : .groups
            }
        case .right:
            if focus == .groups, let row = selectedGroupRow, let id = row.id, row.hasChildren, !expandedGroups.contains(id) {
                return expand(id)
            }
            focus = focus == .groups ? .list : .details
        case .open:
            return open()
        case .search:
            searchFocused = true
            if searchIndex == nil { message = StatusMessage("Indexing the library for search…") }
        case .clearSearch:
            if !searchText.isEmpty {
                searchText = ""
                return applySearch()
            }
        case .cycleSort:
            let all = SortKey.allCases
            let next = all[((all.firstIndex(of: sort) ?? 0) + 1) % all.count]
            return setSort(next, descending: next.startsDescending)
        case .sync:
            guard syncing == nil else {
                message = StatusMessage("A sync is already running")
                return []
            }
            syncing = (0, 0, "")
            let group = activeGroup.builtIn == nil ? activeGroup : nil
            message = StatusMessage(group.map { "Syncing the library and the PDFs of \($0)…" } ?? "Syncing the library…")
            return [.sync(.syncLibrary(group: group, shownGroup: activeGroup))]
        case .reverseSort:
            sortDescending.toggle()
            refreshVisible()
            return [.app(.saveSession)]
        case .reloadLibrary:
            screen.show(.reloadQuestion)
        case .showBookmarks:
            return showBookmarks()
        case .openWith:
            return openWithMenu()
        case .copyLink:
            return copyLink()
        default:
            break
        }
        return []
    }

    /// Switches the sort; the order arrives as `sortReady`.
    mutating func setSort(_ key: SortKey, descending: Bool) -> [Effect] {
        sort = key
        sortDescending = descending
        sortRank = nil
        message = StatusMessage("Sorted by \(key.label)")
        return [.library(.computeSort(key)), .app(.saveSession)]
    }

    private func pageRows(_ pane: Pane) -> Int {
        Layout(width: width, height: height, focus: focus).contentRows(of: pane)
    }

    private mutating func move(by delta: Int) -> [Effect] {
        switch focus {
        case .groups:
            groupCursor.selected = clampedAdd(groupCursor.selected, delta)
            groupCursor.clamp(count: groupRows.count, rows: pageRows(.groups))
        case .list:
            awaitingFirstSort = false
            let before = listCursor.selected
            listCursor.selected = clampedAdd(listCursor.selected, delta)
            listCursor.clamp(count: visible.count, rows: pageRows(.list))
            if listCursor.selected != before { detailsScroll = 0 }
        case .details:
            detailsScroll = max(0, clampedAdd(detailsScroll, delta))
        }
        return []
    }

    private func clampedAdd(_ value: Int, _ delta: Int) -> Int {
        let (sum, overflow) = value.addingReportingOverflow(delta)
        return overflow ? (delta > 0 ? Int.max / 2 : 0) : max(0, sum)
    }

    private mutating func cyclePane(by step: Int) {
        let order: [Pane] = Pane.allCases.filter { pane in
            Layout(width: width, height: height, focus: pane).rect(of: pane) != nil
        }
        guard let index = order.firstIndex(of: focus) else {
            focus = .list
            return
        }
        focus = order[(index + step + order.count) % order.count]
    }

    // MARK: - Groups

    var selectedGroupRow: GroupRow? {
        groupCursor.selected < groupRows.count ? groupRows[groupCursor.selected] : nil
    }

    /// Flattens the group tree by what is expanded.
    mutating func rebuildGroupRows() {
        let selectedRow = selectedGroupRow
        var rows: [GroupRow] = []
        func add(_ group: Group, parent: GroupID?, depth: Int) {
            let id = AppState.id(of: group, in: parent)
            rows.append(GroupRow(id: id, name: group.name, depth: depth, kind: group.kind,
                                 hasChildren: !group.children.isEmpty, unavailableReason: group.unavailableReason))
            if expandedGroups.contains(id) {
                for child in group.children { add(child, parent: id, depth: depth + 1) }
            }
        }
        // With several files open, the groups each file keeps come together under its name,
        // where the first of them would be.
        let openFiles = library?.files.map(\.source.path) ?? []
        let files = openFiles.count > 1 ? openFiles : []
        var filesShown = false
        for group in groups {
            guard group.sourceFile != nil, !files.isEmpty else {
                add(group, parent: nil, depth: 0)
                continue
            }
            guard !filesShown else { continue }
            filesShown = true
            for file in files where groups.contains(where: { $0.sourceFile == file }) {
                rows.append(GroupRow(id: nil, name: (file as NSString).lastPathComponent, depth: 0,
                                     kind: .builtin, hasChildren: false, unavailableReason: nil))
                for kept in groups where kept.sourceFile == file { add(kept, parent: nil, depth: 0) }
            }
        }
        // bibread's own "Recently read" goes after the other built-in groups.
        let afterBuiltIns = rows.lastIndex { $0.kind == .builtin && $0.depth == 0 && !$0.isHeading }.map { $0 + 1 } ?? 0
        rows.insert(GroupRow(id: .builtIn(.recentlyRead), name: BuiltInGroup.recentlyRead.name, depth: 0, kind: .builtin,
                             hasChildren: false, unavailableReason: nil), at: afterBuiltIns)
        if linkTargets != nil {
            // The references of the link bibread was opened with, first.
            rows.insert(GroupRow(id: .builtIn(.fromLink), name: BuiltInGroup.fromLink.name, depth: 0, kind: .builtin,
                                 hasChildren: false, unavailableReason: nil), at: 0)
        }
        groupRows = rows
        if let selectedRow, let index = rows.firstIndex(where: { $0.id == selectedRow.id && $0.name == selectedRow.name }) {
            groupCursor.selected = index
        } else if let index = rows.firstIndex(where: { $0.id == activeGroup }) {
            groupCursor.selected = index
        }
        groupCursor.clamp(count: rows.count, rows: pageRows(.groups))
    }

    /// Whether a group path (`Parent/Child`) names a group of the tree.
    /// The identifier of a group of the tree, inside `parent` (nil: at the top): a built-in
    /// group's is its case, another's the path of names to it (never parsed from its name, so
    /// that a library's own group named like a built-in one stays its own).
    public static func id(of group: Group, in parent: GroupID?) -> GroupID {
        if let parent { return parent.child(named: group.name) }
        if group.kind == .builtin, let builtIn = BuiltInGroup(named: group.name) { return .builtIn(builtIn) }
        return .path([group.name])
    }

    /// Whether the tree has the group `id` names (exactly: its names, in their case).
    static func groupExists(_ id: GroupID, in groups: [Group], parent: GroupID? = nil) -> Bool {
        groups.contains { group in
            let own = AppState.id(of: group, in: parent)
            return own == id || (id.isInside(own) && groupExists(id, in: group.children, parent: own))
        }
    }

    private mutating func expand(_ group: GroupID) -> [Effect] {
        expandedGroups.insert(group)
        rebuildGroupRows()
        let children = groupRows.compactMap(\.id).filter { $0.isInside(group) && groupCounts[$0] == nil }
        return children.isEmpty ? [] : [.library(.countGroups(children))]
    }

    private mutating func collapseOrGoToParent() {
        guard let row = selectedGroupRow else { return }
        if let id = row.id, row.hasChildren && expandedGroups.contains(id) {
            expandedGroups.remove(id)
            rebuildGroupRows()
        } else if row.depth > 0, let parent = groupRows[..<groupCursor.selected].lastIndex(where: { $0.depth < row.depth }) {
            groupCursor.selected = parent
            groupCursor.clamp(count: groupRows.count, rows: pageRows(.groups))
        }
    }

    /// The groups of the rows (to count), leaving out the files' headings.
    var countableGroups: [GroupID] {
        groupRows.compactMap(\.id)
    }

    /// Shows the members of `group` in the list.
    mutating func activateGroup(_ group: GroupID) -> [Effect] {
        if let row = groupRows.first(where: { $0.id == group }), let reason = row.unavailableReason {
            message = StatusMessage(reason, isError: true)
            return []
        }
        activeGroup = group
        listCursor = ListCursor()
        detailsScroll = 0
        if group == .all, let library {
            groupMembers = Array(library.entries.indices)
            refreshVisible()
            return [.app(.saveSession)]
        }
        if group == .builtIn(.recentlyRead) {
            refreshRecentlyRead()
            return [.app(.saveSession)]
        }
        if group == .builtIn(.fromLink) {
            refreshLinkGroup()
            return []
        }
        groupMembers = nil
        refreshVisible()
        return [.library(.computeGroupMembers(group)), .app(.saveSession)]
    }

    // MARK: - Opening

    private mutating func open() -> [Effect] {
        switch focus {
        case .groups:
            guard let row = selectedGroupRow, let id = row.id else { return [] }
            var effects = activateGroup(id)
            if row.unavailableReason == nil {
                focus = .list
                if row.hasChildren && !expandedGroups.contains(id) { effects += expand(id) }
            }
            return effects
        case .list, .details:
            guard let entry = selectedEntry else { return [] }
            if let position = selectedEntryPosition, let best = fullText?.pages[position]?.first {
                // Found in the PDF's text: open at the best page, the words highlighted.
                let effects = openEntry(entry, atPage: .physical(best.page))
                let words = fullText?.highlightWords.first
                screen.reading?.showMatches(of: words)
                return effects
            }
            return openEntry(entry, atPage: activeGroup == .builtIn(.fromLink) ? linkPage(of: entry) : nil)
        }
    }

    /// Opens a reference's PDF (downloading it first when only the remote has it), at `page`
    /// or where it was last read.
    mutating func openEntry(_ entry: Entry, atPage page: PageRequest?) -> [Effect] {
        let files = entry.links.files.filter(\.isPDF)
        if files.contains(where: { fileLocations[$0.path] == nil }) {
            // Not looked for yet (the marks are still being worked out): ask, then open.
            openingOnceLocated = (entry.entryAddress, page)
            return [.library(.locateFiles(files, opening: entry.entryAddress))]
        }
        let local = files.compactMap { file -> LinkedFile? in
            fileLocations[file.path]?.path.map { LinkedFile(path: $0, label: file.label, fileType: file.fileType, field: file.field) }
        }
        if local.isEmpty {
            if let remote = files.first(where: { fileLocations[$0.path] == .remoteOnly }) {
                // Only the remote has it: download just this file, then open it.
                guard fetching == nil else {
                    message = StatusMessage("A download is already running; Esc cancels it")
                    return []
                }
                fetching = FetchState(path: remote.path, address: entry.entryAddress, title: entry.title.isEmpty ? entry.address : entry.title, page: page)
                return [.sync(.fetchFile(path: remote.path))]
            } else if let missing = files.first {
                message = StatusMessage("The PDF of \(entry.address) is not on this machine: \(missing.path)", isError: true)
            } else {
                message = StatusMessage("\(entry.address) has no linked PDF", isError: true)
            }
            return []
        }
        if local.count > 1 {
            screen.chooser = FileChooser(address: entry.entryAddress, files: local, page: page)
            return []
        }
        return openDocument(local[0], entry: entry, page: page)
    }

    private mutating func openDocument(_ file: LinkedFile, entry: Entry, page: PageRequest?) -> [Effect] {
        var view = ReadingState(path: file.path, address: entry.entryAddress, title: entry.title.isEmpty ? entry.address : entry.title)
        view.requestedPage = page
        screen.reading = view
        return [.document(.openDocument(path: file.path, password: nil)), .reading(.recordReading(entry.entryAddress)), .bookmarks(.loadNotes(entry.citeKey))]
    }

    private mutating func handleChooser(_ key: Key) -> [Effect] {
        guard let chooser = screen.chooser else { return [] }
        let action = keymap.action(for: key, in: .chooser)
        switch action {
        case .close:
            screen.chooser = nil
        case .choose:
            return openChosen(chooser.selected)
        case .chooseNumbered:
            if let number = keymap.number(of: key, for: .chooseNumbered), number <= chooser.files.count { return openChosen(number - 1) }
        case .moveDown:
            screen.chooser?.selected = min(chooser.files.count - 1, chooser.selected + 1)
        case .moveUp:
            screen.chooser?.selected = max(0, chooser.selected - 1)
        default:
            break
        }
        return []
    }

    /// Opens the chooser's file at `index`, closing the chooser.
    private mutating func openChosen(_ index: Int) -> [Effect] {
        guard let chooser = screen.chooser else { return [] }
        screen.chooser = nil
        guard let entry = library?.entry(at: chooser.address), index < chooser.files.count else { return [] }
        return openDocument(chooser.files[index], entry: entry, page: chooser.page)
    }

    // MARK: - Reloading

    /// `R` asked: y reads the library's files again (keeping the group, the selection, the
    /// sort and the search); n or Esc leaves it as it is.
    private mutating func handleReloadQuestion(_ key: Key) -> [Effect] {
        switch keymap.action(for: key, in: .question) {
        case .yes:
            screen.close(.reloadQuestion)
            reloadAsked = true
            message = StatusMessage("Reading the library again from disk…")
            return [.app(.reloadLibrary)]
        case .no, .cancel:
            screen.close(.reloadQuestion)
        default:
            break
        }
        return []
    }

    // MARK: - Help

    private mutating func handleHelp(_ key: Key) -> [Effect] {
        let scroll = screen.helpScroll ?? 0
        // The help's last line at the bottom of the box is as far as it scrolls.
        let rows = max(1, height - 4)
        let lastTop = max(0, HelpOverlay.lines(self, width: max(1, min(width, HelpOverlay.widestBox) - 4)).count - rows)
        switch keymap.action(for: key, in: .help) {
        case .moveDown: screen.helpScroll = min(lastTop, scroll + 1)
        case .moveUp: screen.helpScroll = max(0, min(lastTop, scroll) - 1)
        case .pageDown: screen.helpScroll = min(lastTop, scroll + rows)
        case .pageUp: screen.helpScroll = max(0, min(lastTop, scroll) - rows)
        default: screen.close(.help)
        }
        return []
    }

    // MARK: - Search

    private mutating func handleSearchInput(_ key: Key) -> [Effect] {
        let action = keymap.action(for: key, in: .searchBar)
        var field = TextField(searchText)
        if field.apply(action, key: key) {
            guard field.text != searchText else { return [] }
            searchText = field.text
            return applySearch()
        }
        switch action {
        case .clearSearch:
            searchFocused = false
            if !searchText.isEmpty {
                searchText = ""
                return applySearch()
            }
        case .keepSearch:
            searchFocused = false
            focus = .list
        case .listDown, .listUp, .listPageDown, .listPageUp:
            let saved = focus
            focus = .list
            let moves: [Action: Action] = [.listDown: .moveDown, .listUp: .moveUp, .listPageDown: .pageDown, .listPageUp: .pageUp]
            _ = perform(moves[action ?? .listDown] ?? .moveDown)
            focus = saved
        default:
            break
        }
        return []
    }

    /// Filters the list by the search text (when the index is ready; it applies on arrival).
    /// `text:` terms are asked of the full-text index in the background; the list follows
    /// when its answer arrives.
    @discardableResult
    mutating func applySearch() -> [Effect] {
        let trimmed = searchText.trimmingCharacters(in: .whitespaces)
        searchError = nil
        if trimmed.isEmpty {
            searchMatches = nil
            fullText = nil
            fullTextPending = nil
            refreshVisible()
            return []
        }
        let query: Query
        do {
            query = try Query(parsing: searchText)
        } catch let error as QueryError {
            searchError = error.description
            // A phrase being typed: its quote is still open. Filter by the phrase so far, as if
            // closed; any other problem keeps the last good filter.
            let typedSoFar = searchText.split(separator: "\"", omittingEmptySubsequences: false).last ?? ""
            guard error.message == QueryError.unclosedQuote, !typedSoFar.allSatisfy(\.isWhitespace),
                  let phraseSoFar = try? Query(parsing: searchText + "\"") else { return [] }
            query = phraseSoFar
        } catch {
            searchError = "\(error)"
            return []
        }
        var effects: [Effect] = []
        let terms = query.fullTextTerms
        if terms.isEmpty {
            fullText = nil
            fullTextPending = nil
        } else if fullText?.terms != terms && fullTextPending != terms {
            fullTextPending = terms
            effects.append(.fullText(.searchFullText(terms)))
        }
        guard let searchIndex else { return effects }
        // Until the index answers, text: terms use the last answer (or match nothing).
        searchMatches = searchIndex.search(query, fullText: fullText)
        refreshVisible()
        return effects
    }

    // MARK: - The visible list

    /// Recomputes the list from the group, the search and the sort, keeping the selected
    /// reference selected when it is still shown.
    mutating func refreshVisible() {
        let previous = selectedEntryPosition
        var rows = groupMembers ?? []
        if let matches = searchMatches {
            rows = AppState.intersect(rows, matches)
        }
        if activeGroup.builtIn?.keepsItsOwnOrder == true {
            // This group's order is its point: the most recently read first.
        } else if let rank = sortRank {
            let descending = sortDescending
            rows.sort { descending ? rank[$0] > rank[$1] : rank[$0] < rank[$1] }
        } else if sortDescending && sort.startsDescending == false {
            rows.reverse()
        }
        visible = rows
        if let pending = pendingSelection, let library, groupMembers != nil {
            if let index = rows.firstIndex(where: { library.entries[$0].entryAddress == pending }) {
                listCursor.selected = index
                listCursor.top = max(0, index - pageRows(.list) / 2)
                pendingSelection = nil
                awaitingFirstSort = false
            } else if sortRank != nil {
                pendingSelection = nil
            }
        } else if let previous, let index = rows.firstIndex(of: previous) {
            listCursor.selected = index
        } else {
            listCursor = ListCursor()
        }
        listCursor.clamp(count: rows.count, rows: pageRows(.list))
    }

    private var selectedEntryPosition: Int? {
        listCursor.selected < visible.count ? visible[listCursor.selected] : nil
    }

    /// The common elements of two ascending position lists.
    static func intersect(_ first: [Int], _ second: [Int]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(min(first.count, second.count))
        var i = 0, j = 0
        while i < first.count && j < second.count {
            if first[i] == second[j] {
                result.append(first[i])
                i += 1
                j += 1
            } else if first[i] < second[j] {
                i += 1
            } else {
                j += 1
            }
        }
        return result
    }

    mutating func clampCursors() {
        listCursor.clamp(count: visible.count, rows: pageRows(.list))
        groupCursor.clamp(count: groupRows.count, rows: pageRows(.groups))
        if Layout(width: width, height: height, focus: focus).rect(of: focus) == nil { focus = .list }
    }

    // MARK: - Mouse

    /// The mouse: in the reading view the wheel scrolls (as Down and Up would, whatever is
    /// over it); elsewhere a click closes the help, a chooser takes none, the bookmarks view
    /// has its own, and the library's panes select, open and scroll.
    private mutating func handle(_ mouse: MouseEvent) -> [Effect] {
        if case .reading = screen.mode {
            switch mouse.kind {
            case .wheelDown: return keepingReadingPosition { $0.handleReadingLayers(.down) }
            case .wheelUp: return keepingReadingPosition { $0.handleReadingLayers(.up) }
            default: return []
            }
        }
        guard library != nil, screen.chooser == nil else { return [] }
        if showingHelp {
            screen.close(.help)
            return []
        }
        if case .bookmarks = screen.mode { return handleBookmarks(mouse) }
        let layout = Layout(width: width, height: height, focus: focus)
        if layout.searchBar.contains(x: mouse.x, y: mouse.y) {
            searchFocused = true
            return []
        }
        for pane in layout.visiblePanes {
            guard let rect = layout.rect(of: pane), rect.contains(x: mouse.x, y: mouse.y) else { continue }
            searchFocused = false
            focus = pane
            switch mouse.kind {
            case .wheelDown: return move(by: 3)
            case .wheelUp: return move(by: -3)
            case .click, .doubleClick:
                let firstRow = rect.y + (pane == .list ? 2 : 1)
                let offset = mouse.y - firstRow
                guard offset >= 0 else { return [] }
                switch pane {
                case .groups:
                    let index = groupCursor.top + offset
                    guard index < groupRows.count else { return [] }
                    groupCursor.selected = index
                    groupCursor.clamp(count: groupRows.count, rows: pageRows(.groups))
                    guard let id = groupRows[index].id else { return mouse.kind == .doubleClick ? open() : [] }
                    return mouse.kind == .doubleClick ? open() : activateGroup(id)
                case .list:
                    let index = listCursor.top + offset
                    guard index < visible.count else { return [] }
                    if listCursor.selected != index { detailsScroll = 0 }
                    listCursor.selected = index
                    listCursor.clamp(count: visible.count, rows: pageRows(.list))
                    return mouse.kind == .doubleClick ? open() : []
                case .details:
                    return []
                }
            }
        }
        return []
    }
}
