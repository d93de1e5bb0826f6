import BibModel
import BibreadValues
import Foundation

extension AppState {
    /// The work to start right after the first screen: everything that reads the whole library.
    public mutating func start() -> [Effect] {
        guard library != nil else { return [] }
        rebuildGroupRows()
        // The counts of the groups shown go first (on the bulk queue, before the field groups and
        // the keywords: with one more thread the sort and the search index were later); the marks
        // (a few ms of work) follow the sort, on the queue of what a key waits for, not the counts.
        var effects: [Effect] = [.library(.countGroups(countableGroups)), .library(.loadFieldGroups), .library(.buildSearchIndex),
                                 .library(.computeSort(sort)), .library(.computeMarks), .bookmarks(.loadBookmarks),
                                 .fullText(.updateFullTextIndex), .library(.collectKeywords)]
        // A synced library's journal, or the one `bibread merge-conflicted` keeps for a library it does not sync.
        effects.append(.library(.loadConflicts))
        groupCounts[.builtIn(.recentlyRead)] = lastRead.count
        if activeGroup.builtIn?.isTransient == true && linkTargets == nil {
            // Restored from a session that saved it before they were never saved: it is gone.
            message = StatusMessage("The group \(activeGroup) was only for the session that opened its link; showing All")
            effects += activateGroup(.all)
        } else if activeGroup == .builtIn(.fromLink) {
            refreshLinkGroup()
        } else if activeGroup == .builtIn(.recentlyRead) {
            refreshRecentlyRead()
        } else if activeGroup == .builtIn(.conflicts) {
            refreshConflictsGroup()
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

    mutating func apply(_ event: Event) -> [Effect] {
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
        case .keywordsReady(let vocabulary):
            keywordVocabulary = vocabulary
            return []
        case .conventionsReady(let conventions):
            editing.conventions = conventions
            return []
        case .filesLocated(let located, let opening):
            fileLocations.merge(located) { _, new in new }
            guard let opening, let pending = openingOnceLocated, pending.address == opening,
                  let entry = library?.entry(at: opening) else { return [] }
            openingOnceLocated = nil
            return openEntry(entry, atPage: pending.page)
        case .documentOpened, .documentDetails, .documentNeedsPassword, .pageText, .documentFailed, .searchResult:
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
            runningSync = nil
            waitingForRemote = nil
            // q was pressed during the sync, and the question is still up: nothing is left to ask.
            if let quitting = quitOnceTheSyncEnded() { return quitting }
            // An empty summary: a sync of the reader's own that brought nothing new; the message stays.
            if !summary.isEmpty || libraryChanged || failed {
                message = StatusMessage(summary + (libraryChanged ? " · the library was read again" : ""), isError: failed)
            }
            return libraryChanged ? [.app(.reloadLibrary)] : [.library(.computeMarks)] + (librarySynced ? [.library(.loadConflicts)] : [])
        case .libraryReloaded(let reloaded):
            forgetEditPositions()
            let count = "\(Count.format(reloaded.entries.count)) reference\(reloaded.entries.count == 1 ? "" : "s")"
            if reloadAsked {
                reloadAsked = false
                message = StatusMessage("Read the library again from disk: \(count)")
            } else if let changed = changedOnDisk {
                let names = changed.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
                // An edit saved on the changed file says so first.
                let saved = message.flatMap { $0.text.hasPrefix("Saved: ") ? $0.text + " · " : nil } ?? ""
                message = StatusMessage("\(saved)\(names) changed on disk; read again: \(count)")
            }
            changedOnDisk = nil
            return reload(reloaded)
        case .libraryChangedOnDisk(let paths):
            // A sync writes the .bib itself, and reads it again when it ends.
            guard library != nil, syncing == nil else { return [] }
            changedOnDisk = (changedOnDisk ?? []) + paths.filter { !(changedOnDisk ?? []).contains($0) }
            // An edit being written goes on the file as it is now; read it once written.
            if editing.isWriting {
                editing.reloadWhenWritten = true
                return []
            }
            return [.app(.reloadLibrary)]
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
        case .editSaved, .editFailed, .undoDescribed, .undoFinished, .entryTextLoaded, .entryTextEdited, .conflictsLoaded, .conflictResolved:
            return updateEditing(event)
        case .terminate:
            isQuitting = true
            return [.app(.saveSession), .app(.quit)]
        case .syncDue:
            return syncOnItsOwn()
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
        keywordVocabulary = nil
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
    mutating func handle(_ key: Key) -> [Effect] {
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
    mutating func handle(_ key: Key, on overlay: Overlay) -> [Effect] {
        switch overlay {
        case .help: return handleHelp(key)
        case .openWith: return handleOpenWith(key)
        case .chooser: return handleChooser(key)
        case .reloadQuestion: return handleReloadQuestion(key)
        case .syncQuitQuestion: return handleSyncQuitQuestion(key)
        case .readingPrompt: return handleReadingPrompt(key)
        case .outline: return handleOutline(key)
        case .noteEditor: return handleNoteEditor(key)
        case .bookmarksPrompt: return handleBookmarksPrompt(key)
        case .importQuestion: return handleImportQuestion(key)
        case .keywordEditor: return handleKeywordEditor(key)
        case .groupPicker: return handleGroupPicker(key)
        case .editPrompt: return handleEditPrompt(key)
        }
    }

    mutating func handleLibrary(_ key: Key) -> [Effect] {
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

    mutating func perform(_ action: Action) -> [Effect] {
        switch action {
        case .quit:
            if let waiting = quitAfterWrites() { return waiting }
            if let question = askBeforeQuittingASync() { return question }
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
            let group = startSync(automatic: false)
            message = StatusMessage(group.map { "Syncing the library and the PDFs of \($0)…" } ?? "Syncing the library…")
            return [.sync(.syncLibrary(group: group, shownGroup: activeGroup))]
        case .reverseSort:
            sortDescending.toggle()
            refreshVisible()
            return [.app(.saveSession)]
        case .reloadLibrary:
            guard !editing.isWriting else {
                message = StatusMessage("An edit is being saved; R reads the library again once it is")
                return []
            }
            screen.show(.reloadQuestion)
        case .toggleRead, .rate, .editField, .editEntry, .undoEdit, .resolveConflict:
            return performEdit(action)
        case .showBookmarks:
            return showBookmarks()
        case .openWith:
            return openWithMenu()
        case .copyLink:
            return copyLink()
        case .editKeywords:
            return openKeywordEditor()
        case .fileInGroups:
            return openGroupPicker()
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

    func pageRows(_ pane: Pane) -> Int {
        Layout(width: width, height: height, focus: focus).contentRows(of: pane)
    }

    mutating func move(by delta: Int) -> [Effect] {
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

    func clampedAdd(_ value: Int, _ delta: Int) -> Int {
        let (sum, overflow) = value.addingReportingOverflow(delta)
        return overflow ? (delta > 0 ? Int.max / 2 : 0) : max(0, sum)
    }

    mutating func cyclePane(by step: Int) {
        let order: [Pane] = Pane.allCases.filter { pane in
            Layout(width: width, height: height, focus: pane).rect(of: pane) != nil
        }
        guard let index = order.firstIndex(of: focus) else {
            focus = .list
            return
        }
        focus = order[(index + step + order.count) % order.count]
    }
}
