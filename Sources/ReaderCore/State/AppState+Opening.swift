import BibModel
import BibreadValues
import Foundation

/// Opening a reference: its PDF (located first, downloaded when only the remote has it), the
/// chooser when it has several, and the question before the library is read again from disk.
extension AppState {
    mutating func open() -> [Effect] {
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
        if let linked = files.first(where: { fileLocations[$0.path] == .found(local[0].path) }) {
            // Not at its path: the file of that name elsewhere, which the user should know.
            message = StatusMessage("Opened the file of the same name: \(local[0].path) (the library links \(linked.path), not here)")
        }
        return openDocument(local[0], entry: entry, page: page)
    }

    mutating func openDocument(_ file: LinkedFile, entry: Entry, page: PageRequest?) -> [Effect] {
        var view = ReadingState(path: file.path, address: entry.entryAddress, title: entry.title.isEmpty ? entry.address : entry.title)
        view.requestedPage = page
        screen.reading = view
        return [.document(.openDocument(path: file.path, password: nil)), .reading(.recordReading(entry.entryAddress)), .bookmarks(.loadNotes(entry.citeKey))]
    }

    mutating func handleChooser(_ key: Key) -> [Effect] {
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
    mutating func openChosen(_ index: Int) -> [Effect] {
        guard let chooser = screen.chooser else { return [] }
        screen.chooser = nil
        guard let entry = library?.entry(at: chooser.address), index < chooser.files.count else { return [] }
        return openDocument(chooser.files[index], entry: entry, page: chooser.page)
    }

    /// `R` asked: y reads the library's files again (keeping the group, the selection, the
    /// sort and the search); n or Esc leaves it as it is.
    mutating func handleReloadQuestion(_ key: Key) -> [Effect] {
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
}
