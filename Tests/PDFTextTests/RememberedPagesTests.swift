import BibreadTestSupport
import Foundation
@testable import PDFText
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The page texts kept on disk for a reopened document (issue 31) are the texts poppler gives
/// that exact file, in every mode, on the corpora's manuals; a changed file, another producer
/// and damaged or hostile kept files give nothing.
@Suite("remembered pages")
struct RememberedPagesTests {
    static func texts(of document: PDFDocument, pages: [Int]) throws -> [RememberedPages.Page: String] {
        var texts: [RememberedPages.Page: String] = [:]
        for number in pages where number <= document.pageCount {
            for mode in PageTextMode.allCases {
                texts[RememberedPages.Page(number: number, mode: mode)] = try document.text(ofPage: number, mode: mode)
            }
        }
        return texts
    }

    @Test func whatIsKeptIsWhatPopplerGivesThatFile() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pages = RememberedPages(folder: folder)
        let pdfs = Fixtures.corpus("pdfs")
        let names = try FileManager.default.contentsOfDirectory(atPath: pdfs.path).filter { $0.hasSuffix(".pdf") }.sorted()
        #expect(!names.isEmpty)
        for name in names {
            let path = pdfs.appendingPathComponent(name).path
            let first = try PDFDocument(path: path)
            let identity = try #require(first.fileIdentity)
            let chosen = [1, 2, first.pageCount / 2, first.pageCount]
            pages.remember(try Self.texts(of: first, pages: chosen), for: identity)
            // Read back beside a fresh opening of the file, as a reopening reads it.
            let again = try PDFDocument(path: path)
            #expect(again.fileIdentity == identity)
            let kept = pages.texts(for: try #require(again.fileIdentity))
            #expect(kept == (try Self.texts(of: again, pages: chosen)), "\(name)")
            #expect(kept.count == Set(chosen).count * PageTextMode.allCases.count)
        }
    }

    @Test func aChangedFileAnotherProducerOrAnotherFileGiveNothing() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("copy.pdf")
        try FileManager.default.copyItem(at: Fixtures.corpus("pdfs/R-intro.pdf"), to: copy)
        let pages = RememberedPages(folder: folder.appendingPathComponent("kept"))
        let document = try PDFDocument(path: copy.path)
        let identity = try #require(document.fileIdentity)
        pages.remember(try Self.texts(of: document, pages: [3]), for: identity)
        #expect(pages.texts(for: identity).count == 3)
        #expect(RememberedPages(folder: pages.folder, producer: "poppler 0.1; bibread other").texts(for: identity).isEmpty)
        // The modification time set back as it was: the change time still differs.
        var status = stat()
        #expect(stat(copy.path, &status) == 0)
        usleep(20_000)
        var times = [status.st_atim, status.st_mtim]
        #expect(utimensat(AT_FDCWD, copy.path, &times, 0) == 0)
        #expect(FileIdentity(path: copy.path) != identity)
        #expect(pages.texts(for: try #require(FileIdentity(path: copy.path))).isEmpty)
        // Another file (another inode), and the same inode with another size.
        let other = try #require(FileIdentity(path: Fixtures.corpus("pdfs/R-exts.pdf").path))
        #expect(pages.texts(for: other).isEmpty)
        var grown = identity
        grown.size += 1
        #expect(pages.texts(for: grown).isEmpty)
    }

    @Test func damagedOrHostileKeptFilesGiveNothing() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pages = RememberedPages(folder: folder)
        let identity = FileIdentity(device: 1, inode: 2, size: 3, modified: 4, changed: 5)
        pages.remember([RememberedPages.Page(number: 7, mode: .reflow): "text\u{0C}\u{0}é"], for: identity)
        let file = pages.file(for: identity)
        let whole = try Data(contentsOf: file)
        #expect(pages.texts(for: identity) == [RememberedPages.Page(number: 7, mode: .reflow): "text\u{0C}\u{0}é"])
        let producer = pages.producer.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "/", with: "\\/")
        let identityJSON = #"{"device":1,"inode":2,"size":3,"modified":4,"changed":5}"#
        func page(_ number: String, _ mode: String) -> String {
            #"{"format":1,"producer":"\#(producer)","identity":\#(identityJSON),"pages":[{"number":\#(number),"mode":"\#(mode)","text":"x"}]}"#
        }
        #expect(pages.texts(for: identity).count == 1)
        let hostile: [Data] = [
            Data(), whole.prefix(whole.count / 2), whole.prefix(whole.count - 1), Data("garbage".utf8),
            Data(repeating: 0xFF, count: 1000), Data(String(repeating: "[", count: 100_000).utf8),
            Data(page("0", "reflow").utf8), Data(page("-3", "reflow").utf8), Data(page("2", "sideways").utf8),
            Data(page("99999999999999999999999", "reflow").utf8), Data(page("1.5", "reflow").utf8),
            Data(page("1", "reflow").replacingOccurrences(of: #""format":1"#, with: #""format":2"#).utf8),
            Data(page("1", "reflow").replacingOccurrences(of: #""inode":2"#, with: #""inode":3"#).utf8),
            Data(count: RememberedPages.largestFile + 1),
        ]
        for (number, bytes) in hostile.enumerated() {
            try bytes.write(to: file)
            #expect(pages.texts(for: identity).isEmpty, "hostile file \(number)")
        }
        // The well-formed one reads (so the hostile ones failed for what they are).
        try Data(page("2", "layout").utf8).write(to: file)
        #expect(pages.texts(for: identity) == [RememberedPages.Page(number: 2, mode: .layout): "x"])
        // A folder, a FIFO or a link to a device in its place: nothing, and no wait.
        try FileManager.default.removeItem(at: file)
        #expect(mkfifo(file.path, 0o600) == 0)
        #expect(pages.texts(for: identity).isEmpty)
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: "/dev/zero")
        #expect(pages.texts(for: identity).isEmpty)
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        #expect(pages.texts(for: identity).isEmpty)
        pages.remember([RememberedPages.Page(number: 1, mode: .reading): "y"], for: identity)  // cannot replace a folder
        #expect(pages.texts(for: identity).isEmpty)
    }

    @Test func atMostKeptDocumentsStay() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pages = RememberedPages(folder: folder.appendingPathComponent("kept"), keptDocuments: 3)
        let identities = (1...6).map { FileIdentity(device: 9, inode: UInt64($0), size: 1, modified: 1, changed: 1) }
        for (number, identity) in identities.enumerated() {
            pages.remember([RememberedPages.Page(number: 1, mode: .reading): "page of \(number)"], for: identity)
            // Modification times a second apart, so that which is oldest is plain.
            var times = [timespec(tv_sec: 1_000 + number, tv_nsec: 0), timespec(tv_sec: 1_000 + number, tv_nsec: 0)]
            _ = utimensat(AT_FDCWD, pages.file(for: identity).path, &times, 0)
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: pages.folder.path).filter { !$0.hasPrefix(".") }
        #expect(left.count == 3)
        #expect(pages.texts(for: identities[5]) == [RememberedPages.Page(number: 1, mode: .reading): "page of 5"])
        #expect(pages.texts(for: identities[0]).isEmpty)
        #expect(try FileManager.default.attributesOfItem(atPath: pages.folder.path)[.posixPermissions] as? Int == 0o700)
    }

    /// A writer that died between its write and its rename left a temporary file that nothing
    /// removed (the limit counts only kept files): the next write removes it once it is older than
    /// a live writer ever keeps one, and leaves a fresh one (a writer at work) alone.
    @Test func aDeadWritersTemporaryFileGoesAtTheNextWrite() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pages = RememberedPages(folder: folder, producer: "test")
        let identity = FileIdentity(device: 9, inode: 1, size: 1, modified: 1, changed: 1)
        let stale = folder.appendingPathComponent(".0123abcd.json.4242.17.tmp")
        let fresh = folder.appendingPathComponent(".4567ef01.json.4343.18.tmp")
        let notOurs = folder.appendingPathComponent(".hidden-notes")
        for file in [stale, fresh, notOurs] { try Data("{".utf8).write(to: file) }
        let old = Int(time(nil)) - Int(RememberedPages.abandonedAfter) - 60
        var times = [timespec(tv_sec: old, tv_nsec: 0), timespec(tv_sec: old, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, stale.path, &times, 0) == 0)
        #expect(utimensat(AT_FDCWD, notOurs.path, &times, 0) == 0)
        pages.remember([RememberedPages.Page(number: 1, mode: .reading): "page one"], for: identity)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(!left.contains(stale.lastPathComponent))
        #expect(left.contains(fresh.lastPathComponent))
        #expect(left.contains(notOurs.lastPathComponent))
        #expect(pages.texts(for: identity) == [RememberedPages.Page(number: 1, mode: .reading): "page one"])
    }
}
