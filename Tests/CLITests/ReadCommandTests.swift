import BibreadTestSupport
import Foundation
import Testing

/// `bibread read`: one page of a reference's PDF, as a user runs it.
@Suite("bibread read", .onOwnThreads)
struct ReadCommandTests {
    private var sample: String { Fixtures.samples.appendingPathComponent("library.bib").path }

    @Test func printsAPageReflowedToTheWidth() throws {
        let result = try ProcessRunner.bibread(["read", sample, "knuth1984texbook", "--page", "1", "--width", "60"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 10)
        #expect(lines.allSatisfy { $0.count <= 60 })
        // Page label 1 is the body's first page (after i and ii).
        #expect(result.standardOutput.contains("Origins"))
    }

    @Test func theTextIsPopplersTextOfThatPage() throws {
        let pdf = Fixtures.samples.appendingPathComponent("papers/incompleteness.pdf").path
        let reference = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/pdftotext"), ["-f", "4", "-l", "4", pdf, "-"])
        let result = try ProcessRunner.bibread(["read", sample, "goedel1931formal", "--page", "4", "--width", "1000"])
        func words(_ text: String) -> [Substring] { text.split(whereSeparator: \.isWhitespace) }
        #expect(!words(reference.standardOutput).isEmpty)
        #expect(words(result.standardOutput) == words(reference.standardOutput))
    }

    @Test func jsonHasPagesLabelsOutlineAndText() throws {
        let result = try ProcessRunner.bibread(["read", sample, "knuth1984texbook", "--page", "ii", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(object["page"] as? Int == 2)
        #expect(object["label"] as? String == "ii")
        #expect(object["pageCount"] as? Int == 5)
        #expect((object["labels"] as? [String])?.prefix(3) == ["i", "ii", "1"])
        let outline = try #require(object["outline"] as? [[String: Any]])
        #expect(outline.first?["title"] as? String == "1 Origins")
        #expect(outline.first?["page"] as? Int == 3)
        #expect((object["text"] as? String)?.isEmpty == false)
    }

    @Test func layoutKeepsTwoColumnsSideBySide() throws {
        let result = try ProcessRunner.bibread(["read", sample, "dijkstra1959note", "--layout"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.split(separator: "\n").contains { $0.contains("     ") && $0.split(separator: " ").count > 6 })
    }

    @Test(arguments: [
        (["cook1971complexity"], "has no linked PDF"),
        (["knuth1984texbook", "--page", "99"], "p. 99 is past the end of the PDF (5 pages)"),
        (["knuth1984texbook", "--page", "xlii"], "No page 'xlii' in the PDF"),
        (["knuth1984texbook", "--file", "3"], "--file 3 is out of range"),
        (["nosuchkey"], "no reference with key 'nosuchkey'"),
    ])
    func problemsAreOneClearLine(_ arguments: [String], _ message: String) throws {
        let result = try ProcessRunner.bibread(["read", sample] + arguments)
        #expect(result.status == 1)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test func anEncryptedPDFNeedsPassword() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let locked = folder.appendingPathComponent("locked.pdf")
        _ = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/qpdf"),
                                  ["--encrypt", "user", "owner", "256", "--", Fixtures.samples.appendingPathComponent("papers/tex-tour.pdf").path, locked.path])
        let bib = folder.appendingPathComponent("locked.bib")
        try "@misc{locked, title = {Locked}, file = {:locked.pdf:PDF}}".write(to: bib, atomically: true, encoding: .utf8)
        let refused = try ProcessRunner.bibread(["read", bib.path, "locked"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("encrypted; give its password with --password"))
        let opened = try ProcessRunner.bibread(["read", bib.path, "locked", "--password", "user", "--page", "1"])
        #expect(opened.status == 0, "\(opened.standardError)")
        #expect(opened.standardOutput.contains("Origins"))
    }

    @Test("A linked PDF that is a FIFO, or a library that is one: one line saying so, at once (issue 26, item 6)")
    func aFIFOIsRefusedAtOnce() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe.pdf")
        try FIFO.make(at: fifo)
        let bib = folder.appendingPathComponent("pipe.bib")
        try "@misc{pipe2020, title = {A pipe}, file = {:pipe.pdf:PDF}}".write(to: bib, atomically: true, encoding: .utf8)
        // Before: `read` waited for a writer to the FIFO, for good (the 20 s here ran out).
        let refused = try await ToolRunner.run(ProcessRunner.bibreadExecutable.path, ["read", bib.path, "pipe2020"], timeout: .seconds(20))
        #expect(refused.status == 1)
        #expect(refused.standardError == "bibread: \(fifo.path): not a regular file (a FIFO)\n", "\(refused.standardError)")
        #expect(refused.output.isEmpty)

        let fifoLibrary = folder.appendingPathComponent("library.bib")
        try FIFO.make(at: fifoLibrary)
        for command in [["read", fifoLibrary.path, "pipe2020"], ["list", fifoLibrary.path]] {
            let result = try await ToolRunner.run(ProcessRunner.bibreadExecutable.path, command, timeout: .seconds(20))
            #expect(result.status != 0)
            #expect(result.standardError.contains("\(fifoLibrary.path): not a regular file (a FIFO)"), "\(command): \(result.standardError)")
        }
    }

    @Test func resumeWithoutASavedPositionSaysSoAndShowsPageOne() throws {
        let state = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let result = try ProcessRunner.bibread(["read", sample, "goedel1931formal", "--resume", "--json"], environment: ["XDG_STATE_HOME": state.path])
        #expect(result.status == 0)
        #expect(result.standardError.contains("no saved position"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(object["page"] as? Int == 1)
    }
}

/// `read --page` and `open --print` follow the reader's rule for page numbers: a number is the
/// printed page (its label), `#N` the Nth page of the file, and a number that is no label falls
/// back to the page of the file with that number, saying so.
@Suite("bibread read and open: page numbers", .onOwnThreads)
struct PageNumberCommandTests {
    /// A library of one reference, `key`, whose PDF is `pdf`, in a fresh folder.
    final class Library {
        let folder: URL
        let bib: URL

        init(key: String, pdf: URL) throws {
            folder = try Fixtures.temporaryDirectory()
            bib = folder.appendingPathComponent("one.bib")
            try "@manual{\(key), title = {Title}, file = {:\(pdf.path):PDF}}".write(to: bib, atomically: true, encoding: .utf8)
        }

        /// XDG folders inside `folder`, so that nothing touches the user's state.
        var environment: [String: String] {
            Dictionary(uniqueKeysWithValues: ["STATE", "CONFIG", "CACHE", "DATA"].map {
                ("XDG_\($0)_HOME", folder.appendingPathComponent($0.lowercased()).path)
            })
        }

        deinit { try? FileManager.default.removeItem(at: folder) }
    }

    static var manual: URL { Fixtures.corpus("pdfs/R-exts.pdf") }

    static func json(_ result: ProcessResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    @Test func aNumberIsThePrintedPageAndHashIsThePageOfTheFile() throws {
        let library = try Library(key: "rexts", pdf: Self.manual)
        let printed = try ProcessRunner.bibread(["read", library.bib.path, "rexts", "--page", "229", "--json"], environment: library.environment)
        #expect(printed.status == 0, "\(printed.standardError)")
        #expect(try Self.json(printed)["page"] as? Int == 236)
        #expect(try Self.json(printed)["pageLabel"] as? String == "229")
        let physical = try ProcessRunner.bibread(["read", library.bib.path, "rexts", "--page", "#5", "--json"], environment: library.environment)
        #expect(physical.status == 0, "\(physical.standardError)")
        #expect(try Self.json(physical)["page"] as? Int == 5)
        #expect(try Self.json(physical)["pageLabel"] as? String == "iii")
        let fallback = try ProcessRunner.bibread(["read", library.bib.path, "rexts", "--page", "230", "--json"], environment: library.environment)
        #expect(fallback.status == 0, "\(fallback.standardError)")
        #expect(try Self.json(fallback)["page"] as? Int == 230)
        #expect(fallback.standardError.contains("No page is labelled 230"), "\(fallback.standardError)")
        let past = try ProcessRunner.bibread(["read", library.bib.path, "rexts", "--page", "#237"], environment: library.environment)
        #expect(past.status == 1)
        #expect(past.standardError.contains("p. #237 is past the end of the PDF (236 pages)"), "\(past.standardError)")
    }

    @Test func openPrintSaysACitedPageIsPastTheEnd() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let onePage = folder.appendingPathComponent("one-page.pdf")
        try LabelledPDF.write(pageCount: 1, ranges: [], to: onePage)
        let library = try Library(key: "Key", pdf: onePage)
        let text = try ProcessRunner.bibread(["open", "--print", "[@Key, p. 3]", "--library", library.bib.path], environment: library.environment)
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("p. 3 is past the end of the PDF (1 page)"), "\(text.standardOutput)")
        let json = try ProcessRunner.bibread(["open", "--print", "--json", "[@Key, p. 3]", "--library", library.bib.path], environment: library.environment)
        let targets = try #require(try Self.json(json)["targets"] as? [[String: Any]])
        #expect((targets.first?["pageProblem"] as? String)?.contains("p. 3 is past the end") == true, "\(json.standardOutput)")
    }

    @Test func bookmarksAddTakesThePrintedPageAndStoresThePageOfTheFileWithIt() throws {
        let library = try Library(key: "rexts", pdf: Self.manual)
        func add(_ target: String) throws -> ProcessResult {
            try ProcessRunner.bibread(["bookmarks", "add", target, "--library", library.bib.path], environment: library.environment)
        }
        let printed = try add("rexts:1")
        #expect(printed.status == 0, "\(printed.standardError)")
        #expect(printed.standardOutput.contains("Bookmarked rexts p. 1 (#8)"), "\(printed.standardOutput)")
        let physical = try add("rexts:#3-4")
        #expect(physical.status == 0, "\(physical.standardError)")
        let past = try add("rexts:300")
        #expect(past.status == 1)
        #expect(past.standardError.contains("p. 300 is past the end of the PDF (236 pages)"), "\(past.standardError)")
        let listed = try ProcessRunner.bibread(["bookmarks", "list", "--json"], environment: library.environment)
        let root = try Self.json(listed)
        let references = try #require(root["Children"] as? [[String: Any]]).compactMap { $0["Reference"] as? [String: Any] }
        #expect(references.map { $0["Page"] as? Int } == [8, 3])
        #expect(references.map { $0["LastPage"] as? Int } == [nil, 4])
        #expect(references.map { $0["PageLabel"] as? String } == ["1", "i"])
    }
}

/// `bibread read` of a PDF whose page tree lies about its count (issue 26, item 13).
@Suite("bibread read, a lying page tree", .onOwnThreads)
struct LyingPageTreeReadTests {
    @Test func aPDFWithNoReadablePageSaysSoInsteadOfZeroPages() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = folder.appendingPathComponent("zero.pdf")
        try LabelledPDF.write(pageCount: 2, ranges: [], to: pdf, claimedCount: "0")
        let bib = folder.appendingPathComponent("lib.bib")
        try "@misc{zero, title = {Zero}, file = {:zero.pdf:PDF}}\n".write(to: bib, atomically: true, encoding: .utf8)
        for page in [[], ["--page", "xx"], ["--page", "2"], ["--json"]] {
            let result = try ProcessRunner.bibread(["read", bib.path, "zero"] + page)
            #expect(result.status == 1)
            #expect(result.standardError == "bibread: \(pdf.path): no page of this PDF can be read: its page tree is damaged (it gives no valid page count)\n",
                    "\(page): \(result.standardError)")
        }
    }

    @Test func aPageTheTreeClaimsButLacksSaysWhichPagesThereAre() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = folder.appendingPathComponent("five.pdf")
        try LabelledPDF.write(pageCount: 2, ranges: [], to: pdf, claimedCount: "5")
        let bib = folder.appendingPathComponent("lib.bib")
        try "@misc{five, title = {Five}, file = {:five.pdf:PDF}}\n".write(to: bib, atomically: true, encoding: .utf8)
        let present = try ProcessRunner.bibread(["read", bib.path, "five", "--page", "2"])
        #expect(present.standardOutput.contains("Page 2 of the file"), "\(present.standardError)")
        let missing = try ProcessRunner.bibread(["read", bib.path, "five", "--page", "4"])
        #expect(missing.status == 1)
        #expect(missing.standardError == "bibread: \(pdf.path): page 4 is not in the PDF: its page tree claims 5 pages, but only pages 1 to 2 can be read\n",
                "\(missing.standardError)")
    }
}
