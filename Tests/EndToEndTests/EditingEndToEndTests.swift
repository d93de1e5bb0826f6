import BibreadTestSupport
import Foundation
import Testing

/// The reader's edits with the real binary in tmux, on copies of real libraries: `x`, `*`, `e`,
/// `E` with a scripted `$EDITOR`, `u`; kept after quitting; another program's change while an
/// edit waits for the file's lock.
@Suite("Editing in the reader, end to end (tmux)", .onOwnThreads)
struct EditingEndToEndTests {
    /// BibDesk's (its header, `Date-Modified`, `=` signs lined up): 39 references.
    private static let bibDesk = "bib/zotero-bbt/pandoc_biblio.bib"
    /// JabRef 5's, ISO-8859-1 with CRLF line endings: four references.
    private static let jabRef = "bib/zotero-bbt/import_Jabref_import_-_groups_lost__1730-5.bib"
    private static let key = "gamification-thesis"

    /// Copies `corpus` to the sandbox's home as `mine.bib` and runs the reader on it until all
    /// `count` references are listed; `body` gets the session and the file.
    private func withCopy(of corpus: String, count: Int, environment: [String: String] = [:],
                          _ body: (Tmux, URL, Sandbox) async throws -> Void) async throws {
        let helper = ReaderEndToEndTests()
        try await helper.withSession(command: { sandbox in
            let bib = sandbox.home.appendingPathComponent("mine.bib")
            try? FileManager.default.copyItem(at: Fixtures.corpus(corpus), to: bib)
            var variables = environment
            for (name, value) in variables { variables[name] = value.replacingOccurrences(of: "$HOME", with: sandbox.home.path) }
            return sandbox.bibread([bib.path], environment: variables)
        }) { tmux, sandbox in
            try await tmux.waitFor("\(count) of \(count) · All")
            try await body(tmux, sandbox.home.appendingPathComponent("mine.bib"), sandbox)
        }
    }

    private func select(_ key: String, count: Int, in tmux: Tmux) async throws {
        try await tmux.sendKeys("/")
        try await tmux.type("key:\(key)")
        try await tmux.sendKeys("Enter")
        try await tmux.waitFor("1 of \(count)")
    }

    /// The Unread group's count on the screen, once counted.
    private func unread(in tmux: Tmux) async throws -> Int {
        var count: Int?
        _ = try await tmux.waitUntil("the Unread group counted") { text in
            count = Screen(text).groupCount("Unread")
            return count != nil
        }
        return count ?? -1
    }

    private func text(of bib: URL) -> String {
        (try? String(contentsOf: bib, encoding: .isoLatin1)) ?? ""
    }

    @Test("x, * and e on a BibDesk library: shown at once, saved in BibDesk's fields, kept after quitting")
    func markRateAndEditABibDeskLibrary() async throws {
        try await withCopy(of: Self.bibDesk, count: 39, environment: ["BIBREAD_TIMINGS": "1"]) { tmux, bib, sandbox in
            let unreadBefore = try await unread(in: tmux)
            try await select(Self.key, count: 39, in: tmux)
            try await tmux.sendKeys("x")
            try await tmux.waitFor("Saved: \(Self.key): Read: added 1")
            try await tmux.waitUntil("a ✓ on the row and Unread one less") { text in
                let screen = Screen(text)
                return screen.groupCount("Unread") == unreadBefore - 1 && screen.rows.contains { $0.contains("✓") }
            }
            try await tmux.sendKeys("*")
            try await tmux.waitFor("Rate \(Self.key): 0 (none) to 5")
            try await tmux.sendKeys("5")
            try await tmux.waitFor("Saved: \(Self.key): Rating: added 5")
            try await tmux.sendKeys("e")
            try await tmux.type("sch")
            try await tmux.sendKeys("Tab")
            try await tmux.waitFor("(Tab completes): School")
            try await tmux.sendKeys("Enter")
            try await tmux.waitFor("School = The University of Manchester")
            try await tmux.sendKeys("C-u")
            try await tmux.type("University of Manchester")
            try await tmux.sendKeys("Enter")
            try await tmux.waitFor("Saved: \(Self.key): School: ")
            // The reader's own writes are not another program's: the watcher (0.3 s to settle)
            // says nothing, and the library is not read again.
            // (BIBREAD_TIMINGS logs each event the loop takes.)
            try await Task.sleep(for: .seconds(1.5))
            let log = (try? String(contentsOf: sandbox.state.appendingPathComponent("bibread/stderr.log"), encoding: .utf8)) ?? ""
            #expect(log.contains("edit saved"), "the log has the loop's events:\n\(log.suffix(2000))")
            #expect(!log.contains("library changed on disk"), "\(log.suffix(2000))")
            try await tmux.sendKeys("q")
            try await ReaderEndToEndTests().expectCleanExit(tmux)
            let text = text(of: bib)
            #expect(text.contains(/Read = *\{1\}/), "\(text.prefix(900))")
            #expect(text.contains("{5},"))
            #expect(text.contains("School =       {University of Manchester},"))
            #expect(!text.contains("Date-Modified ={2018-07-22 21:03:37 +0000}"), "the modification date is updated")

            // Opened again: kept.
            let again = try await Tmux.start(width: 120, height: 40, command: sandbox.bibread([bib.path]), in: sandbox)
            defer { Task { await again.kill() } }
            try await again.waitFor("39 of 39 · All")
            #expect(try await unread(in: again) == unreadBefore - 1)
            try await select(Self.key, count: 39, in: again)
            try await again.waitFor("School         University of")
            try await again.sendKeys("q")
            try await ReaderEndToEndTests().expectCleanExit(again)
        }
    }

    @Test("x on a JabRef library writes readstatus with CRLF and Latin-1 kept; Unread and ✓ follow it when reopened")
    func markReadInAJabRefLibrary() async throws {
        try await withCopy(of: Self.jabRef, count: 4) { tmux, bib, sandbox in
            let unreadBefore = try await unread(in: tmux)
            #expect(unreadBefore == 4)
            try await select("Marvin2020", count: 4, in: tmux)
            try await tmux.sendKeys("x")
            try await tmux.waitFor("Saved: Marvin2020: readstatus: added read")
            try await tmux.sendKeys("q")
            try await ReaderEndToEndTests().expectCleanExit(tmux)
            #expect(text(of: bib).contains("readstatus = {read}"))
            #expect(!text(of: bib).replacingOccurrences(of: "\r\n", with: "").contains("\n"), "CRLF everywhere still")

            let again = try await Tmux.start(width: 120, height: 40, command: sandbox.bibread([bib.path]), in: sandbox)
            defer { Task { await again.kill() } }
            try await again.waitFor("4 of 4 · All")
            #expect(try await unread(in: again) == 3)
            try await again.sendKeys("q")
            try await ReaderEndToEndTests().expectCleanExit(again)
        }
    }

    @Test("E opens the entry in $EDITOR: a broken entry is refused with file:line:col and reopened; the fix is written; u undoes it")
    func editTheEntryInTheEditorThenUndo() async throws {
        // The editor: the first run breaks the entry (a brace lost), the second sees the note at
        // the top and fixes it with a new title; each run keeps a copy of what it was given.
        let script = """
        #!/bin/sh
        count=$(cat "$HOME/runs" 2>/dev/null || echo 0)
        count=$((count + 1))
        echo $count > "$HOME/runs"
        cp "$1" "$HOME/given-$count.bib"
        if [ $count = 1 ]; then
          sed -i 's/Merino de Paz},/Merino de Paz,/' "$1"
        else
          sed -i 's/Merino de Paz,/Merino de Paz},/; s/A tool to improve sustainability/A Tool to Improve Sustainability/' "$1"
        fi

        """
        try await withCopy(of: Self.bibDesk, count: 39, environment: ["VISUAL": "$HOME/editor.sh", "EDITOR": "/bin/false"]) { tmux, bib, sandbox in
            let editor = sandbox.home.appendingPathComponent("editor.sh")
            try script.write(to: editor, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: editor.path)
            let original = text(of: bib)
            try #require(original.contains("{Gamification: A tool to improve sustainability efforts,}"))
            try await select(Self.key, count: 39, in: tmux)
            try await tmux.sendKeys("E")
            try await tmux.waitFor("Saved: \(Self.key): Title: ")
            let given = try String(contentsOf: sandbox.home.appendingPathComponent("given-2.bib"), encoding: .utf8)
            let note = try #require(given.split(separator: "\n").first)
            #expect(note.hasPrefix("% bibread: \(Self.key).bib:"), "\(note)")
            #expect(note.split(separator: ":").count >= 5, "file:line:col: what: \(note)")
            let edited = text(of: bib)
            #expect(edited.contains("Title =        {Gamification: A Tool to Improve Sustainability efforts,},"))
            #expect(edited.contains("{B. Merino de Paz},"))
            #expect(!edited.contains("% bibread"))

            try await tmux.sendKeys("u")
            try await tmux.waitFor("Undo 'edit \(Self.key)' of ")
            try await tmux.sendKeys("y")
            try await tmux.waitFor("Undid 'edit \(Self.key)'")
            #expect(text(of: bib) == original)
            try await tmux.sendKeys("q")
            try await ReaderEndToEndTests().expectCleanExit(tmux)
        }
    }

    @Test("q while an edit waits for the file's lock: the reader says so, writes it once it can, then quits")
    func quitWaitsForAnEditBeingWritten() async throws {
        try await withCopy(of: Self.bibDesk, count: 39) { tmux, bib, sandbox in
            try await select(Self.key, count: 39, in: tmux)
            try await tmux.sendKeys("*")
            try await tmux.sendKeys("5")
            try await tmux.waitFor("Saved: \(Self.key): Rating: added 5")
            let (holder, release) = try holdLock(in: sandbox)
            try await tmux.sendKeys("x")
            try await tmux.waitFor("Saving \(Self.key)…")
            try await tmux.sendKeys("q")
            try await tmux.waitFor("Saving 1 edit before quitting…")
            #expect(!text(of: bib).contains("Read ="), "not written while the lock is held")
            release()
            holder.waitUntilExit()
            try await ReaderEndToEndTests().expectCleanExit(tmux)
            #expect(text(of: bib).contains(/Read = *\{1\}/), "written before the reader ended")
        }
    }

    /// Another process holding the library's write lock (the one lock file a first edit made),
    /// as another bibread writing it would, until `release` is called (however loaded the
    /// machine, the lock is held until the test has seen what it waits for).
    private func holdLock(in sandbox: Sandbox) throws -> (holder: Process, release: () -> Void) {
        let locks = sandbox.state.appendingPathComponent("bibread/locks")
        let lock = try #require(try FileManager.default.contentsOfDirectory(atPath: locks.path).first { $0.hasSuffix(".lock") })
        let stop = sandbox.root.appendingPathComponent("release-lock")
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [locks.appendingPathComponent(lock).path, "-c",
                            "while [ ! -e '\(stop.path)' ]; do sleep 0.05; done"]
        try holder.run()
        // flock takes it at once (no other holder); give it the moment to start.
        Thread.sleep(forTimeInterval: 0.3)
        return (holder, { FileManager.default.createFile(atPath: stop.path, contents: Data()) })
    }

    @Test("Another program changes the .bib while an edit waits for the file's lock: both changes are kept and shown")
    func anotherProgramsChangeWhileAnEditIsPending() async throws {
        try await withCopy(of: Self.bibDesk, count: 39) { tmux, bib, sandbox in
            try await select(Self.key, count: 39, in: tmux)
            try await tmux.sendKeys("*")
            try await tmux.sendKeys("5")
            try await tmux.waitFor("Saved: \(Self.key): Rating: added 5")
            // Another bibread holds the file's write lock for a while.
            let (holder, release) = try holdLock(in: sandbox)
            try await tmux.sendKeys("x")
            try await tmux.waitFor("Saving \(Self.key)…")
            // Meanwhile an editor writes the file: a note on the reference.
            let changed = text(of: bib).replacingOccurrences(of: "Author =       {B. Merino de Paz},",
                                                              with: "Author =       {B. Merino de Paz},\n  Note = {Written by another program},")
            try changed.write(to: bib, atomically: true, encoding: .utf8)
            release()
            holder.waitUntilExit()
            try await tmux.waitFor("Saved: \(Self.key): Read: added 1", timeout: .seconds(20))
            try await tmux.waitFor("Written by another", timeout: .seconds(20))
            let text = text(of: bib)
            #expect(text.contains("Note = {Written by another program},"))
            #expect(text.contains(/Read = *\{1\}/), "\(text.prefix(900))")
            #expect(text.contains("{5},"))
            try await tmux.sendKeys("q")
            try await ReaderEndToEndTests().expectCleanExit(tmux)
        }
    }
}
