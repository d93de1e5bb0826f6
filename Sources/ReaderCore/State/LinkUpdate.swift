import BibModel
import BibreadValues

extension AppState {
    /// The session to save: the group, selection and sort shown. A transient group is not
    /// saved; the group saved before it (`previous`) stays the one to come back to.
    public func sessionToSave(previous: LibrarySession) -> LibrarySession {
        let group = activeGroup.builtIn?.isTransient == true
            ? previous.group.flatMap { GroupID(path: $0).builtIn?.isTransient == true ? nil : $0 }
            : activeGroup.path
        return LibrarySession(group: group, selection: (selectedEntry?.entryAddress ?? pendingSelection)?.text,
                              sort: sort.rawValue, descending: sortDescending)
    }

    /// Opens a link: its references become the group "From link", the first is selected and,
    /// when the link is for reading or study, opened at its page. Links for citing or listening
    /// open nothing by themselves: the "open with" menu offers the apps, and the user chooses.
    public mutating func openLink(_ link: ReferenceLink) -> [Effect] {
        guard let library else { return [] }
        linkTargets = link.papers
        linkIntention = link.intention
        rebuildGroupRows()
        var effects = activateGroup(.builtIn(.fromLink))
        groupCursor.selected = 0
        let missing = link.papers.filter { library.entries(withKey: $0.key).isEmpty }.map(\.key)
        if !missing.isEmpty {
            let list = missing.prefix(5).joined(separator: ", ") + (missing.count > 5 ? "…" : "")
            message = StatusMessage("Not in this library: \(list)", isError: true)
        }
        guard let entry = selectedEntry else { return effects }
        switch link.intention {
        case .read, .study:
            let count = link.papers.count - missing.count
            let before = message
            effects += openEntry(entry, atPage: linkPage(of: entry))
            if message == nil || message == before, count > 1 {
                message = StatusMessage("1 of \(count) linked references; q goes back to the list of them")
            }
        case .cite, .listen:
            effects += openWithMenu(intention: link.intention)
        }
        return effects
    }

    /// The first page the link points at in a reference, if any: a printed page, unless the
    /// link says `#N`.
    func linkPage(of entry: Entry) -> PageRequest? {
        linkTargets?.first { $0.key.lowercased() == entry.key.lowercased() }.flatMap(PageRequest.init(firstPageOf:))
    }

    /// Shows the link's references, in its order.
    mutating func refreshLinkGroup() {
        guard let library, let targets = linkTargets else { return }
        var seen = Set<Int>()
        groupMembers = targets.compactMap { paper in
            library.positions(ofKey: paper.key).first.flatMap { seen.insert($0).inserted ? $0 : nil }
        }
        groupCounts[.builtIn(.fromLink)] = groupMembers?.count
        refreshVisible()
    }

    /// Asks for the best pages of the references on screen that `text:` terms found, when the
    /// selected one has none yet.
    mutating func requestFullTextPages() -> [Effect] {
        guard let results = fullText, listCursor.selected < visible.count else { return [] }
        let selected = visible[listCursor.selected]
        let matched = results.matchedEntries
        guard matched.contains(selected), results.pages[selected] == nil, !fullTextPagesPending.contains(selected) else { return [] }
        let rows = Layout(width: width, height: height, focus: focus).contentRows(of: .list)
        let window = visible[listCursor.top..<min(visible.count, listCursor.top + max(1, rows) + 1)]
        let wanted = Array(Set(window.filter { matched.contains($0) && results.pages[$0] == nil && !fullTextPagesPending.contains($0) }
            + [selected])).sorted()
        fullTextPagesPending.formUnion(wanted)
        return [.fullText(.loadFullTextPages(results.terms, positions: wanted))]
    }
}
