import BibModel
import BibreadTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SyncEngine
import Testing

/// A local library written on another machine (a Mac's `/Users/jane/Papers/…` links) read here,
/// where the same PDFs are under a temporary folder laid out differently: the path mapping, the
/// search by name, an ambiguous name, a file that stays missing, and the bounds of the search.
@Suite("linked files found through a path mapping or by name")
struct LinkedFileSearchTests {
    private static func file(_ path: String) -> LinkedFile {
        LinkedFile(path: path, label: nil, fileType: nil, field: "file")
    }

    /// A library folder and a papers folder laid out as on this machine, not the Mac.
    private struct Layout {
        let root: URL
        var library: URL { root.appendingPathComponent("library") }
        var papers: URL { root.appendingPathComponent("Papers") }

        init() throws {
            root = try Fixtures.temporaryDirectory()
            for folder in [library, papers] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        }

        /// Writes a small PDF-like file at `relative` under `folder`; returns its path.
        @discardableResult
        func put(_ relative: String, under folder: URL) throws -> String {
            let url = folder.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("%PDF-1.4 \(relative)".utf8).write(to: url)
            return url.path
        }

        func locator() -> LinkedFileLocator {
            let locator = LinkedFileLocator()
            locator.registerLocalLibrary(folder: library.path, pathMapping: ["/Users/jane/Papers": papers.path])
            return locator
        }
    }

    @Test func theMappingFindsAFileWhereTheSameFolderIsHere() throws {
        let layout = try Layout()
        defer { try? FileManager.default.removeItem(at: layout.root) }
        let here = try layout.put("Articles/goedel.pdf", under: layout.papers)
        let unmapped = LinkedFileLocator()
        #expect(unmapped.location(of: Self.file("/Users/jane/Papers/Articles/goedel.pdf")) == .missing)

        let locator = layout.locator()
        #expect(locator.lookup(Self.file("/Users/jane/Papers/Articles/goedel.pdf")) == .located(.local(here)))
        #expect(locator.mappedPath(of: "/Users/jane/Papers/Articles/goedel.pdf") == here)
        // The prefix is a whole folder: /Users/jane/PapersOld is not under /Users/jane/Papers.
        #expect(locator.mappedPath(of: "/Users/jane/PapersOld/goedel.pdf") == nil)
        // Mapping takes no walk: nothing was looked for by name.
        #expect(locator.directoriesRead == 0)
    }

    @Test func aFileMovedIntoAnotherFolderIsFoundByItsNameAndSaidToBeAGuess() throws {
        let layout = try Layout()
        defer { try? FileManager.default.removeItem(at: layout.root) }
        let moved = try layout.put("sub/deeper/knuth84.pdf", under: layout.papers)
        let besideTheLibrary = try layout.put("pdfs/turing36.pdf", under: layout.library)
        let locator = layout.locator()

        let knuth = Self.file("/Users/jane/Papers/knuth84.pdf")
        #expect(locator.lookup(knuth) == .sameName(moved))
        #expect(locator.location(of: knuth) == .found(moved))
        #expect(locator.localPath(of: knuth) == moved)
        // Under the library's own folder too, whatever folder the link named.
        #expect(locator.lookup(Self.file("/Volumes/Old Disk/turing36.pdf")) == .sameName(besideTheLibrary))
    }

    /// A Mac's disk ignores case: a library written there links `Knuth84.PDF` and opens the
    /// file `knuth84.pdf`. Here the name is found whatever its case, when no file has the name
    /// exactly; an exact name wins, and two names that differ only in case are not guessed.
    @Test func aNameInAnotherCaseIsFoundAsOnAMacsDisk() throws {
        let layout = try Layout()
        defer { try? FileManager.default.removeItem(at: layout.root) }
        let lower = try layout.put("sub/knuth84.pdf", under: layout.papers)
        let locator = layout.locator()
        #expect(locator.lookup(Self.file("/Users/jane/Papers/Knuth84.PDF")) == .sameName(lower))
        #expect(locator.lookup(Self.file("/Users/jane/Papers/knuth84.pdf")) == .sameName(lower))

        let exact = try layout.put("other/Turing36.pdf", under: layout.papers)
        let otherCase = try layout.put("turing36.pdf", under: layout.library)
        let fresh = layout.locator()
        #expect(fresh.lookup(Self.file("/Users/jane/Papers/Turing36.pdf")) == .sameName(exact))
        #expect(fresh.lookup(Self.file("/Users/jane/Papers/TURING36.pdf")) == .ambiguous([exact, otherCase].sorted()))
    }

    @Test func aNameFoundTwiceIsNotGuessed() throws {
        let layout = try Layout()
        defer { try? FileManager.default.removeItem(at: layout.root) }
        let first = try layout.put("2019/notes.pdf", under: layout.papers)
        let second = try layout.put("drafts/notes.pdf", under: layout.library)
        let locator = layout.locator()
        let notes = Self.file("/Users/jane/Papers/notes.pdf")
        #expect(locator.lookup(notes) == .ambiguous([first, second].sorted()))
        #expect(locator.location(of: notes) == .missing)
    }

    @Test func aFileThatIsNowhereStaysMissingAndSaysWhereItWasLookedFor() throws {
        let layout = try Layout()
        defer { try? FileManager.default.removeItem(at: layout.root) }
        try layout.put("other.pdf", under: layout.papers)
        let locator = layout.locator()
        let gone = Self.file("/Users/jane/Papers/gone.pdf")
        #expect(locator.lookup(gone) == .notFound(searched: [layout.library.path, layout.papers.path], isComplete: true))
        #expect(locator.location(of: gone) == .missing)
        // A locator that knows no library looks nowhere.
        #expect(LinkedFileLocator().lookup(gone) == .notFound(searched: [], isComplete: true))
    }

    @Test func theSearchStaysInsideTheFoldersAndWithinItsDepth() throws {
        let layout = try Layout()
        defer { try? FileManager.default.removeItem(at: layout.root) }
        let outside = layout.root.appendingPathComponent("outside")
        try layout.put("secret.pdf", under: outside)
        try layout.put("hidden.pdf", under: layout.papers.appendingPathComponent(".Trash"))
        // A link to a folder outside, and a link to a file outside: neither is followed.
        try FileManager.default.createSymbolicLink(at: layout.papers.appendingPathComponent("elsewhere"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(at: layout.papers.appendingPathComponent("leak.pdf"),
                                                   withDestinationURL: outside.appendingPathComponent("secret.pdf"))
        // A link to a file inside is a file of the folder.
        let real = try layout.put("real/original.pdf", under: layout.papers)
        let alias = layout.papers.appendingPathComponent("alias.pdf")
        try FileManager.default.createSymbolicLink(at: alias, withDestinationURL: URL(fileURLWithPath: real))
        // Deeper than the search goes.
        let deep = (1...12).map { "level\($0)" }.joined(separator: "/")
        try layout.put("\(deep)/buried.pdf", under: layout.papers)

        let locator = layout.locator()
        for name in ["secret.pdf", "leak.pdf", "hidden.pdf"] {
            #expect(locator.location(of: Self.file("/Users/jane/Papers/x/\(name)")) == .missing, "\(name)")
        }
        #expect(locator.lookup(Self.file("/Users/jane/alias.pdf")) == .sameName(alias.path))
        guard case .notFound(_, let isComplete) = locator.lookup(Self.file("/Users/jane/Papers/buried.pdf")) else {
            Issue.record("a file 12 levels down was found")
            return
        }
        #expect(!isComplete, "the search says it did not read everything")
    }

    /// Thousands of links, none at its path, and thousands of files: each folder is read once in
    /// all (not once per link), and each link is found.
    @Test func thousandsOfLinksReadEachFolderOnce() throws {
        let layout = try Layout()
        defer { try? FileManager.default.removeItem(at: layout.root) }
        let folders = 60
        let perFolder = 50
        var expected: [String: String] = [:]
        for folder in 0..<folders {
            let directory = layout.papers.appendingPathComponent("year\(folder % 6)/topic\(folder)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for number in 0..<perFolder {
                let name = "paper-\(folder)-\(number).pdf"
                let path = directory.appendingPathComponent(name).path
                let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
                try #require(descriptor >= 0, "\(path): \(String(cString: strerror(errno)))")
                close(descriptor)
                expected[name] = path
            }
        }
        // The Mac kept them all in one folder the mapping does not name.
        let locator = layout.locator()
        for (name, path) in expected {
            #expect(locator.lookup(Self.file("/Users/jane/Documents/All/\(name)")) == .sameName(path))
        }
        // The library folder, the papers folder, its 6 year folders and 60 topic folders.
        let directories = 1 + 1 + 6 + folders
        #expect(locator.directoriesRead == directories)
        // Looking them all up again reads nothing more; forgetting reads each folder once again.
        for name in expected.keys.prefix(100) { _ = locator.location(of: Self.file("/Users/jane/Old/\(name)")) }
        #expect(locator.directoriesRead == directories)
        locator.forgetFolderContents()
        _ = locator.location(of: Self.file("/Users/jane/Old/nothing.pdf"))
        #expect(locator.directoriesRead == 2 * directories)
    }
}
