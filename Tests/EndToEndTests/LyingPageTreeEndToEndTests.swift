import BibreadTestSupport
import Foundation
import Testing

/// The reader and a PDF whose page tree lies about its count (issue 26, item 13): it said
/// "0 pages" and "give a printed page (none) or #1 to #0", or "page 4 is out of range (the
/// document has 5 pages)"; now it says what is wrong with the PDF.
@Suite("A lying page tree in the reader, end to end (tmux)", .onOwnThreads)
struct LyingPageTreeEndToEndTests {
    @Test("A PDF with no readable page says why; a page the tree claims but lacks says which pages there are")
    func lyingCounts() async throws {
        let helper = ReaderEndToEndTests()
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try LabelledPDF.write(pageCount: 2, ranges: [], to: folder.appendingPathComponent("zero.pdf"), claimedCount: "0")
        try LabelledPDF.write(pageCount: 2, ranges: [], to: folder.appendingPathComponent("five.pdf"), claimedCount: "5")
        let bib = folder.appendingPathComponent("lying.bib")
        try """
            @misc{zero, title = {Zero pages claimed}, file = {:zero.pdf:PDF}}
            @misc{five, title = {Five pages claimed}, file = {:five.pdf:PDF}}
            """.write(to: bib, atomically: true, encoding: .utf8)
        try await helper.withSession(width: 160, command: { $0.bibread([bib.path]) }) { tmux, _ in
            for key in ["zero", "five"] {
                try await tmux.waitFor("of 2")
                try await tmux.sendKeys("/")
                try await tmux.type("key:\(key)")
                try await tmux.sendKeys("Enter")
                try await tmux.waitFor("1 of 2")
                try await tmux.sendKeys("Enter")
                if key == "zero" {
                    let screen = try await tmux.waitFor("no page of this PDF can be read: its page tree is damaged (it gives no valid page count)")
                    #expect(!screen.contains("0 pages") && !screen.contains("#0"), "\(screen)")
                } else {
                    try await tmux.waitFor("Page 1 of the file")
                    try await tmux.sendKeys(":")
                    try await tmux.type("4")
                    try await tmux.sendKeys("Enter")
                    try await tmux.waitFor("Page 4 is not in the PDF: its page tree claims 5 pages, but only pages 1 to 2 can be read")
                }
                try await tmux.sendKeys("q")
                try await tmux.sendKeys("Escape")
            }
            try await tmux.sendKeys("q")
            try await helper.expectCleanExit(tmux)
        }
    }
}
