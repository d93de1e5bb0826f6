import ArgumentParser
import BibModel
import BibreadServices
import Foundation
import ReaderCore
import ReadingList

struct BookmarksAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Bookmark pages of a reference: KEY:12 or KEY:12-14.",
        discussion: """
        The pages are printed pages (page labels), found in the reference's PDF as the reader \
        finds them; KEY:#12 is the 12th page of the file. The bookmark stores the page of the \
        file and its printed label.
        """)

    @Argument(help: ArgumentHelp("A cite key with a printed page or range: knuth84:12, knuth84:12-14; knuth84:#12 for the 12th page of the file.",
                                 valueName: "key:pages"))
    var target: String

    @Option(help: "The bookmark's name (default: the reference's title, when the library has it).")
    var name: String?

    @Option(help: ArgumentHelp("The folder to add it to, as a path of names; created when missing.", valueName: "folder"))
    var folder: String?

    @OptionGroup var keyCheck: KeyCheckOptions

    func run() throws {
        guard let paper = try? ReferenceLink.parseTarget(target), let pages = paper.pages.first else {
            Console.error("bibread: '\(target)' is not KEY:PAGE or KEY:FIRST-LAST (pages from 1, the last not before the first)")
            throw ExitCode(64)
        }
        // The key and the pages are checked first, so that a refused bookmark leaves no folder
        // behind either.
        var title = name
        var entry: Entry?
        if let (library, paths) = try keyCheck.load() {
            entry = library.entries(withKey: paper.key).first
            guard let entry else {
                let files = paths.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
                Console.error("bibread: \(paper.key) is not in the library (\(files)); nothing was bookmarked")
                throw ExitCode(64)
            }
            if title == nil { title = entry.title }
        }
        let reference = try Self.reference(to: paper.key, pages: pages, numbering: paper.numbering, in: entry)
        let store = try openStore()
        var parent: Int64?
        if let folder, !folder.trimmingCharacters(in: .whitespaces).isEmpty {
            var path: [String] = []
            for part in folder.split(separator: "/").map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
                path.append(part)
                if let existing = try? store.folder(atPath: path.joined(separator: "/")) {
                    parent = existing
                } else {
                    parent = try store.addFolder(named: part, in: parent)
                }
            }
        }
        try store.addBookmark(named: title ?? "", reference: reference, in: parent)
        Console.print("Bookmarked \(reference.citeKey) \(reference.pageLabel)\(folder.map { " in \($0)" } ?? "")")
    }

    /// The bookmark to `pages` of `key`: printed pages found in the PDF of `entry` by the
    /// reader's rule, stored as pages of the file with the first one's printed label. Where the
    /// PDF cannot be read here the numbers are stored as pages of the file, with a warning for
    /// printed ones. A page past the end is an error.
    static func reference(to key: String, pages: ClosedRange<Int>, numbering: PageNumbering, in entry: Entry?) throws -> PageReference {
        guard let info = PDFPageNumbers.info(of: entry) else {
            if numbering == .printed {
                Console.error("warning: no PDF of \(key) to read here: p. \(pages.lowerBound) is stored as page #\(pages.lowerBound) of the file")
            }
            return PageReference(citeKey: key, page: pages.lowerBound, lastPage: pages.count > 1 ? pages.upperBound : nil)
        }
        let first = info.resolve(PageRequest(pages.lowerBound, numbering: numbering))
        let last = info.resolve(PageRequest(pages.upperBound, numbering: numbering), from: first.page ?? 1)
        for resolution in pages.count > 1 ? [first, last] : [first] {
            switch resolution {
            case .page:
                continue
            case .noSuchLabel:
                Console.error("bibread: note: \(info.note(on: resolution))")
            case .pastTheEnd, .notFound:
                Console.error("bibread: \(key): \(info.note(on: resolution))")
                throw ExitStatus.problems
            }
        }
        guard let firstPage = first.page, let lastPage = last.page, lastPage >= firstPage else {
            Console.error("bibread: \(key): p. \(pages.upperBound) comes before p. \(pages.lowerBound) in the PDF")
            throw ExitStatus.problems
        }
        return PageReference(citeKey: key, page: firstPage, lastPage: lastPage > firstPage ? lastPage : nil,
                             printedPage: info.distinctLabel(ofPage: firstPage))
    }
}
