import ArgumentParser
import BibModel
import BibreadServices
import BibreadValues
import Foundation
import PDFText
import ReaderCore
import SyncEngine

/// `bibread read`: one page of a reference's PDF as text, without the full-screen reader.
struct ReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Print one page of a reference's PDF as text.",
        discussion: """
        The page is reflowed to the width (paragraphs rewrapped, hyphenated words joined, \
        ligatures expanded), or printed in its physical layout with --layout. --page takes the \
        printed page (its label: 151, xii), or #N for the Nth page of the file; a number that \
        no page is printed with is the page of the file with that number (a note says so). \
        --resume prints the page where the full-screen reader last was in this document.
        """)

    @Argument(help: ArgumentHelp("BibTeX files, then the cite key.", valueName: "library.bib... key"))
    var arguments: [String] = []

    @Option(help: ArgumentHelp("Which of the reference's PDFs (1 is the first).", valueName: "n"))
    var file: Int?

    @Option(help: ArgumentHelp("The printed page (151, xii), or #N: the Nth page of the file.", valueName: "page"))
    var page: String?

    @Flag(help: "The page where the reader last was in this document.")
    var resume = false

    @Flag(help: "The page's physical layout instead of reflowed text.")
    var layout = false

    @Option(help: ArgumentHelp("Reflow to this many columns (default: the terminal's width, else 80).", valueName: "columns"))
    var width: Int?

    @Option(help: ArgumentHelp("The password of an encrypted PDF.", valueName: "password"))
    var password: String?

    @Flag(help: "Print page count, the page (of the file) and its printed label, the labels, outline and the text as JSON.")
    var json = false

    func validate() throws {
        if arguments.count < 2 { throw ValidationError("name one or more .bib files and then a cite key") }
        if page != nil && resume { throw ValidationError("give --page or --resume, not both") }
        if let file, file < 1 { throw ValidationError("--file counts from 1") }
        if let width, width < 10 { throw ValidationError("--width must be at least 10") }
    }

    func run() throws {
        let paths = try RemoteResolution.libraryPaths(Array(arguments.dropLast()))
        let key = arguments[arguments.count - 1]
        let entry = try LoadedLibrary.load(paths: paths).entry(addressedBy: key, paths: paths)
        let pdfs = entry.links.files.filter(\.isPDF)
        let path = try choosePDF(pdfs, entry: entry)
        let document: PDFDocument
        do {
            document = try PDFDocument(path: path, password: password)
        } catch PDFError.encrypted {
            Console.error("bibread: \(path) is encrypted; give its password with --password")
            throw ExitStatus.problems
        } catch {
            Console.error("bibread: \(error)")
            throw ExitStatus.problems
        }
        let pageNumber = try choosePage(document)
        let text: String
        do {
            text = try document.text(ofPage: pageNumber, mode: layout ? .layout : json ? .reading : .reflow)
        } catch {
            Console.error("bibread: \(path): \(error)")
            throw ExitStatus.problems
        }
        // The process ends after this command: poppler's freeing of the document (every page
        // object it made, 2,000 of them for page 2000) is left to the end of the process.
        defer { Self.keepUntilExit(document) }
        if json {
            printJSON(document: document, path: path, page: pageNumber, text: text, entry: entry)
            return
        }
        if !Self.hasVisibleASCII(text) && text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            let printed = document.pageLabel(ofPage: pageNumber).map { "p. \($0) (#\(pageNumber))" } ?? "page \(pageNumber)"
            Console.error("bibread: \(printed) of \(path) has no text layer (a scan or an image)")
            return
        }
        if layout {
            Console.print(text.replacingOccurrences(of: "\u{0C}", with: "").trimmingCharacters(in: .newlines))
        } else {
            let columns = width ?? (Console.isTerminal ? min(Console.width, 100) : 80)
            Console.print(ReadingText.lines(of: text, width: columns).joined(separator: "\n"))
        }
    }

    /// Keeps `document` open until the process ends: `read` prints and returns, and releasing
    /// a long document cost ~10 M instructions (2 ms) the user waited for.
    private static func keepUntilExit(_ document: PDFDocument) {
        _ = Unmanaged.passRetained(document)
    }

    /// True when `text` has a printable ASCII character, so that trimmed of white space it is
    /// not empty (checked without Foundation; text without one is trimmed to tell).
    static func hasVisibleASCII(_ text: String) -> Bool {
        text.utf8.contains { $0 > 0x20 && $0 < 0x7F }
    }

    /// The PDF to read: `--file N`, else the first one on this machine (saying so when there are more).
    private func choosePDF(_ pdfs: [LinkedFile], entry: Entry) throws -> String {
        guard !pdfs.isEmpty else {
            Console.error("bibread: \(entry.address) has no linked PDF")
            throw ExitStatus.problems
        }
        if let file {
            guard file <= pdfs.count else {
                Console.error("bibread: \(entry.address) has \(pdfs.count) PDF\(pdfs.count == 1 ? "" : "s"); --file \(file) is out of range")
                throw ExitStatus.problems
            }
            let chosen = pdfs[file - 1]
            let lookup = LinkedFileLocator.shared.lookup(chosen)
            guard let local = lookup.location.path else {
                Console.error("bibread: \(chosen.path) is not on this machine\(Self.why(lookup))")
                throw ExitStatus.problems
            }
            Self.noteGuess(lookup, of: chosen, entry: entry)
            return local
        }
        let lookups = pdfs.map { LinkedFileLocator.shared.lookup($0) }
        guard let index = lookups.firstIndex(where: \.location.isHere), let local = lookups[index].location.path else {
            let each = zip(pdfs, lookups).map { "\($0.path)\(Self.why($1))" }
            Console.error("bibread: no PDF of \(entry.address) is on this machine: \(each.joined(separator: "; "))")
            throw ExitStatus.problems
        }
        if pdfs.count > 1 {
            Console.error("bibread: note: \(entry.address) has \(pdfs.count) PDFs; reading number \(index + 1) (choose with --file N)")
        }
        Self.noteGuess(lookups[index], of: pdfs[index], entry: entry)
        return local
    }

    /// Says which file is read when the linked one is not at its path and one of that name is.
    private static func noteGuess(_ lookup: LinkedFileLookup, of file: LinkedFile, entry: Entry) {
        guard case .sameName(let path) = lookup else { return }
        Console.error("bibread: note: \(entry.address): \(file.path) is not there; reading \(HomeFolder.abbreviated(path)) (same name)")
    }

    /// Why a linked file cannot be read, after its path: " (sync it first)", where its name was
    /// looked for, or which files have its name.
    private static func why(_ lookup: LinkedFileLookup) -> String {
        switch lookup {
        case .located(.remoteOnly):
            return " (sync it first)"
        case .ambiguous(let paths):
            return " (\(paths.count) files have its name, so none is read: \(paths.map { HomeFolder.abbreviated($0) }.joined(separator: ", ")))"
        case .notFound(let folders, let isComplete) where !folders.isEmpty:
            let stopped = isComplete ? "" : ", as deep and as many files as are searched"
            return " (no file of its name under \(folders.map { HomeFolder.abbreviated($0) }.joined(separator: ", "))\(stopped))"
        case .located, .sameName, .notFound:
            return ""
        }
    }

    /// `--page` (a printed page, or `#N`: the reader's rule for page numbers), `--resume`, else page 1.
    private func choosePage(_ document: PDFDocument) throws -> Int {
        // A page found without every page's label (they walk poppler's whole page tree): the
        // page `resolve` names with all of them.
        if let page, let request = PageRequest(typed: page),
           let number = DocumentInfo.firstPage(of: request, pageCount: document.pageCount,
                                               candidate: { document.pageNumber(labelled: $0) },
                                               labels: { document.pageLabels(through: $0) }) {
            return number
        }
        let info = DocumentInfo(pageCount: document.pageCount, title: nil, labels: document.pageLabels, outline: [])
        if let page {
            let resolution = PageRequest(typed: page).map { info.resolve($0) } ?? .notFound(page)
            guard let number = resolution.page else {
                Console.error("bibread: \(document.path): \(info.note(on: resolution))")
                throw ExitStatus.problems
            }
            if case .noSuchLabel = resolution { Console.error("bibread: note: \(info.note(on: resolution))") }
            return number
        }
        if resume {
            let store = try? ReadingStore(directory: Directories().state)
            let fingerprint = try? PDFFingerprint.of(path: document.path)
            if let fingerprint, let position = try? store?.position(fingerprint: fingerprint),
               position.page >= 1, position.page <= document.pageCount {
                // Where, when another machine read to that page: the reader's message.
                let elsewhere = position.machine.map { " (read on \(TerminalText.cleanedLine($0)) \(ElapsedTime.ago(Date().timeIntervalSince1970 - position.updatedAt)))" }
                Console.error("bibread: resumed at \(info.pageName(position.page))\(elsewhere ?? "")")
                return position.page
            }
            Console.error("bibread: note: no saved position for \(document.path); showing page 1")
        }
        return 1
    }

    private func printJSON(document: PDFDocument, path: String, page: Int, text: String, entry: Entry) {
        var writer = JSONWriter()
        defer { writer.deallocate() }
        writer.beginObject()
        writer.key("key")
        writer.string(entry.address)
        writer.key("file")
        writer.string(path)
        writer.key("title")
        writer.optionalString(document.title)
        writer.key("pageCount")
        writer.integer(document.pageCount)
        writer.key("page")
        writer.integer(page)
        let labels = document.pageLabels
        // `page` counts pages of the file (as before); `pageLabel` is the printed page
        // (`label`, its older name, stays).
        let label: String? = page <= labels.count ? labels[page - 1] : nil
        writer.key("pageLabel")
        writer.optionalString(label)
        writer.key("label")
        writer.optionalString(label)
        writer.key("labels")
        writer.beginArray()
        for label in labels { writer.string(label) }
        writer.endArray()
        writer.key("outline")
        writer.beginArray()
        for item in document.outline {
            writer.beginObject()
            writer.key("title")
            writer.string(item.title)
            writer.key("level")
            writer.integer(item.level)
            writer.key("page")
            if let target = item.page { writer.integer(target) } else { writer.null() }
            writer.endObject()
        }
        writer.endArray()
        writer.key("layout")
        writer.bool(layout)
        writer.key("text")
        writer.string(text)
        writer.endObject()
        writer.newline()
        Console.write(writer.bytes)
    }
}
