import BibModel
import BibreadValues
import Foundation

extension AppState {
    /// The values apps get for the reference shown (the one read, else the one selected).
    func handlerValues() -> (values: HandlerValues, subject: String)? {
        let entry: Entry?
        if let view = reading {
            entry = library?.entry(at: view.address)
        } else {
            entry = selectedEntry
        }
        guard let entry else { return nil }
        var values = HandlerValues()
        values[.key] = entry.key
        values[.bibtex] = entry.bibTeX
        if let url = entry.decoded("url"), !url.isEmpty { values[.url] = url }
        if let doi = entry.decoded("doi"), !doi.isEmpty { values[.doi] = doi }
        // Apps take the page of the file; the link names the printed page when it is a number
        // (what a reader cites), else the page of the file (`#12` for a page printed xii).
        var page: Int?
        var linked: PaperReference?
        var subject = entry.key
        if let view = reading {
            values[.file] = view.path
            page = view.page
            let label = view.info?.label(ofPage: view.page) ?? String(view.page)
            if let printed = Int(label), printed >= 1, label == String(printed) {
                linked = PaperReference(key: entry.key, pages: [printed...printed])
            } else {
                linked = PaperReference(key: entry.key, pages: [view.page...view.page], numbering: .physical)
            }
            subject += " " + AppState.pageName(view.page, info: view.info)
            if let text = view.pageText {
                values[.pageText] = ReadingText.paragraphs(of: text).joined(separator: "\n\n")
            }
        } else if let file = entry.links.files.filter(\.isPDF).lazy.compactMap({ self.fileLocations[$0.path]?.path }).first {
            values[.file] = file
            // Not open, so its labels are unknown: apps get the link's number as the page of the
            // file (the same in a PDF without labels), the link keeps what the link said.
            if activeGroup == .builtIn(.fromLink), let target = linkTargets?.first(where: { $0.key.lowercased() == entry.key.lowercased() }),
               let first = target.firstPage {
                linked = PaperReference(key: entry.key, pages: [first...first], numbering: target.numbering)
                page = first
                subject += " p. " + (target.numbering == .physical ? "#" : "") + String(first)
            }
        }
        if values[.file] != nil { values[.page] = String(page ?? 1) }
        let link = ReferenceLink(papers: [linked ?? PaperReference(key: entry.key)], library: linkLibraryName)
        values[.link] = link.url
        return (values, subject)
    }

    /// The library name links carry: a single .bib file's name.
    var linkLibraryName: String? {
        libraryPaths.count == 1 ? (libraryPaths[0] as NSString).lastPathComponent : nil
    }

    /// `o`: opens the menu of apps for the reference shown.
    mutating func openWithMenu(intention: Intention? = nil) -> [Effect] {
        if labelsBeingRead() { return [] }
        guard let (values, subject) = handlerValues() else {
            message = StatusMessage("Select a reference first")
            return []
        }
        screen.openWith = OpenWithMenuState(intention: intention, values: values, subject: subject)
        return [.handlers(.prepareOpenWith(intention: intention, values: values))]
    }

    /// `y`: copies the link of the reference shown (at the page read).
    mutating func copyLink() -> [Effect] {
        if labelsBeingRead() { return [] }
        guard let (values, _) = handlerValues(), let link = values[.link] else {
            message = StatusMessage("Select a reference first")
            return []
        }
        return [.handlers(.copyToClipboard(text: link, what: "the link"))]
    }

    mutating func handleOpenWith(_ key: Key) -> [Effect] {
        guard let menu = screen.openWith else { return [] }
        let rows = max(1, height - 8)
        let count = menu.items?.count ?? 0
        let action = keymap.action(for: key, in: .openWithMenu)
        switch action {
        case .close, .openWith:
            screen.openWith = nil
            return []
        case .nextIntention, .previousIntention:
            let all: [Intention?] = [nil] + Intention.allCases.map { Optional($0) }
            let index = all.firstIndex(of: menu.intention) ?? 0
            let next = all[(index + (action == .nextIntention ? 1 : all.count - 1)) % all.count]
            screen.openWith?.intention = next
            screen.openWith?.items = nil
            screen.openWith?.cursor = ListCursor()
            return [.handlers(.prepareOpenWith(intention: next, values: menu.values))]
        case .choose:
            return runMenuItem(at: menu.cursor.selected)
        case .chooseNumbered:
            if let number = keymap.number(of: key, for: .chooseNumbered), number <= count { return runMenuItem(at: number - 1) }
        case .moveDown: screen.openWith?.cursor.selected += 1
        case .moveUp: screen.openWith?.cursor.selected -= 1
        case .pageDown: screen.openWith?.cursor.selected += rows - 1
        case .pageUp: screen.openWith?.cursor.selected -= rows - 1
        case .moveFirst: screen.openWith?.cursor.selected = 0
        case .moveLast: screen.openWith?.cursor.selected = count - 1
        default: break
        }
        screen.openWith?.cursor.clamp(count: count, rows: rows)
        return []
    }

    private mutating func runMenuItem(at index: Int) -> [Effect] {
        guard let menu = screen.openWith, let items = menu.items, index < items.count else { return [] }
        let item = items[index]
        guard item.isRunnable else {
            message = StatusMessage("\(item.entry.name) is not installed: \(item.installHint ?? "install it first")", isError: true)
            return []
        }
        screen.openWith = nil
        if item.entry.style == .background, let listening {
            message = StatusMessage("Already reading aloud with \(listening); Esc stops it", isError: true)
            return []
        }
        return [.handlers(.runHandler(item.entry, executable: item.executable, values: menu.values))]
    }

    mutating func updateOpenWith(_ event: Event) -> [Effect] {
        switch event {
        case .openWithReady(let intention, let items):
            guard let menu = screen.openWith, menu.intention == intention else { return [] }
            let rows = max(1, height - 8)
            screen.openWith?.items = items
            screen.openWith?.cursor.clamp(count: items.count, rows: rows)
        case .handlerStarted(let name, let background):
            if background { listening = name }
            message = StatusMessage(background ? "Reading aloud with \(name) · Esc stops" : "Opened with \(name)")
        case .handlerFinished(let text, let isError):
            message = StatusMessage(text, isError: isError)
        case .listeningStopped(let text):
            listening = nil
            if let text { message = StatusMessage(text) }
        default:
            break
        }
        return []
    }
}
