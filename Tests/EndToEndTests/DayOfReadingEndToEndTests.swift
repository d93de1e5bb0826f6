import BibreadTestSupport
import Foundation
import Testing

/// A day of reading, as a user lives it, in a real terminal against a real WebDAV server: a
/// 3.9 MB library (TUGboat's bibliography, the sample library and a real 113-page manual)
/// synced with a dry run first, opened, searched, read, searched in the document to its last
/// match and round again, bookmarked, quit and reopened where it was left.
@Suite("A day of reading, end to end (tmux)", .onOwnThreads)
struct DayOfReadingEndToEndTests {
    @Test("Sync with a dry run first, open, search, read, search the document to its last match, bookmark, quit, reopen")
    func aDayOfReading() async throws {
        let remoteRoot = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: remoteRoot) }
        let papers = remoteRoot.appendingPathComponent("papers")
        try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent("papers"), to: papers)
        try FileManager.default.copyItem(at: Fixtures.corpus("pdfs/R-intro.pdf"), to: papers.appendingPathComponent("R-intro.pdf"))
        var library = try Data(contentsOf: Fixtures.corpus("bib/beebe/tugboat.bib"))
        library += Data("\n".utf8) + (try Data(contentsOf: Fixtures.samples.appendingPathComponent("library.bib")))
        library += Data("""

            @manual{rintro,
              title = {An Introduction to {R}},
              author = {Venables, W. N. and Smith, D. M.},
              year = 2024,
              file = {:papers/R-intro.pdf:PDF}
            }

            """.utf8)
        #expect(library.count > 2 << 20, "a library of 2 MB or more: \(library.count) bytes")
        try library.write(to: remoteRoot.appendingPathComponent("library.bib"))
        let server = try WebDAVServer.start(root: remoteRoot)
        defer { server.stop() }
        let bibread = "'\(ProcessRunner.bibreadExecutable.path)'"
        let helper = ReaderEndToEndTests()

        try await helper.withSession(width: 160, height: 45, command: { $0.shell() }) { tmux, sandbox in
            try await helper.waitForPrompt(in: tmux)
            let home = sandbox.home.path
            // The dry run plans from the remote's library and changes nothing here.
            try await tmux.type("\(bibread) sync '\(server.baseURL.absoluteString)' --name day --all-pdfs --dry-run; echo dry-run-exit-$?")
            try await tmux.sendKeys("Enter")
            var screen = try await tmux.waitFor("dry-run-exit-0")
            #expect(screen.contains("PDFs: 6 to download"), "\(screen)")
            let afterDryRun = (FileManager.default.enumerator(atPath: home)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".pdf") || $0.hasSuffix(".bib") }
            #expect(afterDryRun.isEmpty, "the dry run left \(afterDryRun)")
            try await tmux.type("clear; \(bibread) sync '\(server.baseURL.absoluteString)' --name day --all-pdfs; echo sync-exit-$?")
            try await tmux.sendKeys("Enter")
            screen = try await tmux.waitFor("sync-exit-0")
            #expect(screen.contains("Done: 6 downloaded"), "the real sync does what the dry run planned\n\(screen)")

            // Open the synced library; search; read.
            try await tmux.type("clear; \(bibread) day")
            try await tmux.sendKeys("Enter")
            screen = try await tmux.waitUntil("the library, 4,800 references or more") { text in
                text.contains("All ") && Screen(text).rows.contains { $0.hasPrefix("   All") && $0.contains("4,86") }
            }
            #expect(screen.contains("warnings while reading"), "TUGboat's own warnings are mentioned, not shown over the list")
            try await tmux.sendKeys("/")
            try await tmux.type("author:venables introduction")
            try await tmux.sendKeys("Enter")
            try await tmux.waitUntil("the manual found") { text in
                Screen(text).statusLine.hasPrefix(" 1 of ") && text.contains("An Introduction to R")
            }
            try await tmux.sendKeys("Enter")
            try await tmux.waitUntil("the manual's first page") { Screen($0).statusLine.contains("113") }

            // Search the document, and go from match to match until the search wraps round.
            try await tmux.sendKeys("/")
            try await tmux.type("temporary")
            try await tmux.sendKeys("Enter")
            var pages: [Int] = []
            screen = try await tmux.waitUntil("the first match") { text in
                !text.contains("Searching") && Self.physicalPage(Screen(text).statusLine).map { $0 > 1 } == true
            }
            pages.append(try #require(Self.physicalPage(Screen(screen).statusLine)))
            var wrapped = false
            for _ in 0..<20 where !wrapped {
                // The next match may be on the same page: the highlight moves, so compare with styles.
                let before = try await tmux.capture(escapes: true)
                try await tmux.sendKeys(">")
                screen = try await tmux.waitUntil("the next match") { text in
                    guard !text.contains("Searching"), Self.physicalPage(Screen(text).statusLine) != nil else { return false }
                    return try await tmux.capture(escapes: true) != before
                }
                wrapped = screen.contains("Search wrapped to the first page")
                if !wrapped, let page = Self.physicalPage(Screen(screen).statusLine) { pages.append(page) }
            }
            #expect(wrapped, "> reaches the last match and then wraps; pages seen: \(pages)")
            #expect(pages.last == 103, "the last page holding 'temporary' is 103; pages seen: \(pages)")
            #expect(pages == pages.sorted(), "matches in page order: \(pages)")
            #expect(Set(pages).isSuperset(of: [5, 37, 53, 81, 91, 98, 103]), "every page holding 'temporary': \(pages)")
            let wrappedTo = try #require(Self.physicalPage(Screen(screen).statusLine))
            #expect(wrappedTo == pages.first, "wrapping goes back to the first match")

            // Bookmark the page; back to the list; quit.
            try await tmux.sendKeys("m")
            try await tmux.waitFor("Bookmarked")
            try await tmux.sendKeys("q")
            try await tmux.waitUntil("the list") { Screen($0).statusLine.hasPrefix(" 1 of ") }
            try await tmux.sendKeys("q")
            try await helper.waitForPrompt(in: tmux)

            // Reopen: the same reference is selected, its PDF resumes at the page, the bookmark is there.
            try await tmux.type("clear; \(bibread) day")
            try await tmux.sendKeys("Enter")
            try await tmux.waitUntil("the library again, the manual selected") { text in
                (Screen(text).rows.first ?? "").contains("rintro") && text.contains("An Introduction to R")
            }
            try await tmux.sendKeys("Enter")
            screen = try await tmux.waitFor("Resumed at p.")
            #expect(Self.physicalPage(Screen(screen).statusLine) == wrappedTo, "\(Screen(screen).statusLine)")
            try await tmux.sendKeys("q")
            try await tmux.sendKeys("b")
            try await tmux.waitFor("rintro")
            try await tmux.sendKeys("q")
            try await tmux.sendKeys("q")
            try await helper.waitForPrompt(in: tmux)
        }
    }

    /// The page of the file in a reading status line: `p. 7 / 113` or `p. 1 (7 of 113)`.
    static func physicalPage(_ status: String) -> Int? {
        guard let start = status.range(of: "p. ") else { return nil }
        let rest = status[start.upperBound...]
        if let open = rest.range(of: " ("), rest[..<open.lowerBound].allSatisfy({ !$0.isWhitespace }),
           let of = rest.range(of: " of ") {
            return Int(rest[open.upperBound..<of.lowerBound])
        }
        return Int(rest.prefix { $0.isNumber })
    }
}
