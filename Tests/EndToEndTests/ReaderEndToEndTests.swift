import BibreadTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// End-to-end tests of the full-screen reader: the real `bibread` binary runs in a private tmux
/// server; keys go in with `send-keys` and the screen comes back with `capture-pane`. Nothing is
/// shared between tests (each has its own tmux socket and XDG directories), so they may run in
/// parallel. Every wait polls the screen with a timeout and fails with the last screen seen.
@Suite("Full-screen reader, end to end (tmux)", .onOwnThreads)
struct ReaderEndToEndTests {
    static let library = SampleLibrary.path

    // MARK: - Opening and moving

    @Test("Samples open in three panes at 120×40; j moves, G goes to the last reference")
    func opensSamplesAndMoves() async throws {
        let samples = try await SampleLibrary()
        #expect(samples.references.count == 25)
        try await withSession(command: { $0.bibread([Self.library]) }) { tmux, _ in
            var screen = Screen(try await tmux.waitFor("References", "Groups", "25 of 25"))
            #expect(screen.rows.count == 40)
            #expect(screen.hasThreePanes, "expected Groups │ References │ details on the first row")
            #expect(screen.rows.first?.contains("sorted by author ▲") == true)
            #expect(screen.rows.dropFirst().first?.contains("Authors ▲") == true, "the list's column header")
            #expect(screen.statusLine.hasPrefix(" 25 of 25 · All"), "status line: \(screen.statusLine)")
            #expect(screen.statusLine.hasSuffix("q quit"), "status line: \(screen.statusLine)")
            #expect(screen.searchBar.hasPrefix("/ press / to search"), "search bar: \(screen.searchBar)")

            screen = try await waitForSamplesReady(in: tmux, samples)
            let rows = screen.listRows
            #expect(rows.count == 25, "every reference has a row at 40 lines")
            let keys = rows.compactMap(samples.key(of:))
            try #require(keys.count == rows.count, "every list row is a reference of the library: \(rows)")
            #expect(Set(keys) == samples.keys)

            // The first row is selected and the details show it.
            try await waitForDetails(of: keys[0], in: tmux)
            // j: the next reference.
            try await tmux.sendKeys("j")
            try await waitForDetails(of: keys[1], in: tmux)
            // G: the last one; k: the one before it; g: the first again.
            try await tmux.sendKeys("G")
            try await waitForDetails(of: keys[keys.count - 1], in: tmux)
            try await tmux.sendKeys("k")
            try await waitForDetails(of: keys[keys.count - 2], in: tmux)
            try await tmux.sendKeys("g")
            try await waitForDetails(of: keys[0], in: tmux)

            try await tmux.sendKeys("q")
            try await expectCleanExit(tmux)
        }
    }

    // MARK: - Search

    @Test("/ knuth filters live to 3 of 25; Enter keeps the filter; Esc in the list clears it")
    func searchFiltersKeepsAndClears() async throws {
        let matches = try await SampleLibrary(["--search", "knuth"])
        #expect(matches.references.count == 3, "bibread list --search knuth")
        let samples = try await SampleLibrary()
        try await withSession(command: { $0.bibread([Self.library]) }) { tmux, _ in
            try await waitForSamplesReady(in: tmux, samples)
            try await tmux.sendKeys("/")
            try await tmux.waitUntil("the search bar to take input (just “/”)") {
                Screen($0).searchBar.trimmingCharacters(in: .whitespaces) == "/"
            }
            try await tmux.type("knuth")
            var screen = Screen(try await tmux.waitUntil("the status line “3 of 25 · All · search: knuth”") {
                Screen($0).statusLine.hasPrefix(" 3 of 25 · All · search: knuth")
            })
            #expect(screen.searchBar.hasPrefix("/ knuth"), "search bar: \(screen.searchBar)")
            #expect(screen.searchBar.hasSuffix("3 matches"), "search bar: \(screen.searchBar)")
            let keys = screen.listRows.compactMap(matches.key(of:))
            #expect(keys.count == 3 && Set(keys) == matches.keys, "list rows: \(screen.listRows)")

            // Enter keeps the filter and hands the keys back to the list.
            try await tmux.sendKeys("Enter")
            screen = Screen(try await tmux.waitUntil("the search bar to let go with the filter kept") {
                let screen = Screen($0)
                return screen.statusLine.hasPrefix(" 3 of 25 · All · search: knuth") && screen.statusLine.hasSuffix("q quit")
            })
            try #require(keys.count == 3)
            try await waitForDetails(of: keys[0], in: tmux)
            // j now moves in the list (in the search bar it would have searched for “knuthj”).
            try await tmux.sendKeys("j")
            try await waitForDetails(of: keys[1], in: tmux)
            #expect(Screen(try await tmux.capture()).statusLine.hasPrefix(" 3 of 25 · All · search: knuth"))

            // Esc in the list clears the search.
            try await tmux.sendKeys("Escape")
            screen = Screen(try await tmux.waitUntil("the search to be cleared (25 of 25 · All, no search:)") {
                let screen = Screen($0)
                return screen.statusLine.hasPrefix(" 25 of 25 · All") && !screen.statusLine.contains("search:")
            })
            #expect(screen.searchBar.hasPrefix("/ press / to search"), "search bar: \(screen.searchBar)")
            #expect(screen.listRows.count == 25)
        }
    }

    // MARK: - Groups

    @Test("Tab Tab reaches Groups; Enter on Classics shows its members; S-Tab goes back to Groups")
    func groupsFilterTheList() async throws {
        let members = try await SampleLibrary(["--group", "Classics"])
        let samples = try await SampleLibrary()
        try await withSession(command: { $0.bibread([Self.library]) }) { tmux, _ in
            var screen = try await waitForSamplesReady(in: tmux, samples)
            let count = try #require(screen.groupCount("Classics"))
            let index = try #require(screen.groupIndex("Classics"))
            let all = try #require(screen.groupIndex("All"))
            #expect(count == members.references.count, "Groups pane says Classics \(count); bibread list --group Classics gives \(members.references.count)")
            try #require(index > all)

            // From the list, Tab goes to the details and Tab again to Groups (the cycle wraps).
            try await tmux.sendKeys("Tab")
            try await tmux.sendKeys("Tab")
            try await tmux.sendKeys("g")
            for _ in all..<index { try await tmux.sendKeys("j") }
            try await tmux.sendKeys("Enter")
            screen = Screen(try await tmux.waitUntil("the status line “\(count) of 25 · Classics”") {
                Screen($0).statusLine.hasPrefix(" \(count) of 25 · Classics")
            })
            let keys = screen.listRows.compactMap(members.key(of:))
            #expect(keys.count == count && Set(keys) == members.keys, "list rows: \(screen.listRows)")

            // Enter focused the list: j moves to the group's second reference.
            try #require(keys.count >= 2)
            try await waitForDetails(of: keys[0], in: tmux)
            try await tmux.sendKeys("j")
            try await waitForDetails(of: keys[1], in: tmux)

            // S-Tab from the list goes back to Groups; g Enter picks All again.
            try await tmux.sendKeys("BTab")
            try await tmux.sendKeys("g")
            try await tmux.sendKeys("Enter")
            try await tmux.waitUntil("the status line “25 of 25 · All”") {
                Screen($0).statusLine.hasPrefix(" 25 of 25 · All")
            }
        }
    }

    // MARK: - Resizing

    @Test("Resizing to 80×24 and 60×20 redraws a clean layout; back to 120×40 gives three panes")
    func resizeRedrawsCleanly() async throws {
        let samples = try await SampleLibrary()
        try await withSession(command: { $0.bibread([Self.library]) }) { tmux, _ in
            let start = try await waitForSamplesReady(in: tmux, samples)
            let selected = try #require(start.listRows.first.flatMap(samples.key(of:)), "the selected reference\n\(start.text)")

            // tmux crops the old frame at once; what bibread draws for the new size comes a moment
            // later. So each wait is for the new size's own layout, and the checks for leftovers
            // run on that settled screen.
            let layouts: [(width: Int, height: Int, name: String, isDrawn: (Screen) -> Bool)] = [
                (80, 24, "Groups and References side by side, the details of \(selected) below, hints at the right edge", { screen in
                    screen.rows[0].contains("Groups") && screen.rows[0].contains("References") && !screen.hasThreePanes
                        && screen.detailsTitleKeys.contains { Screen.matches(shown: $0, full: selected) }
                        && screen.statusLine.hasSuffix("q quit")
                }),
                (60, 20, "the list alone on top (no Groups pane)", { screen in
                    screen.rows[0].contains("References") && !screen.text.contains("Groups")
                }),
                (120, 40, "three panes again, hints at the right edge", { screen in
                    screen.hasThreePanes && screen.statusLine.hasSuffix("q quit")
                }),
            ]
            for layout in layouts {
                let (width, height) = (layout.width, layout.height)
                let size = "\(width)×\(height)"
                try await tmux.resize(width: width, height: height)
                let screen = Screen(try await tmux.waitUntil("the \(size) layout: \(layout.name); status line on the last row") {
                    let screen = Screen($0)
                    return screen.rows.count == height && screen.statusLine.hasPrefix(" 25 of 25 · All")
                        && screen.searchBar.hasPrefix("/ press / to search") && layout.isDrawn(screen)
                })
                for (number, row) in screen.rows.enumerated() {
                    #expect(Screen.displayWidth(row) <= width, "row \(number) is wider than \(width) at \(size): “\(row)”")
                    #expect(row.filter { $0 == "│" }.count <= (width >= 120 ? 2 : 1),
                            "row \(number) has more pane rules than the \(size) layout has: “\(row)”")
                }
                #expect(screen.occurrences(of: "of 25") == 1, "one status line at \(size)\n\(screen.text)")
                #expect(screen.occurrences(of: "press / to search") == 1, "one search bar at \(size)\n\(screen.text)")
                #expect(screen.occurrences(of: "References") == 1, "one list title at \(size)\n\(screen.text)")
                #expect(screen.occurrences(of: "sorted by author") == 1, "one sort indicator at \(size)\n\(screen.text)")
            }
        }
    }

    // MARK: - Leaving

    @Test("q quits and gives the shell back: prompt, echo, and the tty modes it had before")
    func quitGivesTheShellBack() async throws {
        try await withSession(command: { $0.shell() }) { tmux, _ in
            try await waitForPrompt(in: tmux)
            let before = try await sttyModes(in: tmux, marker: 1)
            let pid = try await startBibreadInShell(tmux)
            try await tmux.sendKeys("q")
            try await tmux.waitUntil("bibread (pid \(pid)) to exit after q", settled: false) { _ in !Processes.isRunning(pid) }
            try await expectTerminalRestored(tmux, before: before, status: 0)
        }
    }

    @Test("A signal from outside ends bibread and leaves the terminal as the shell had it",
          arguments: [TerminationSignal.terminate, .interrupt, .hangUp, .segmentationFault])
    func signalsRestoreTheTerminal(_ signal: TerminationSignal) async throws {
        try await withSession(command: { $0.shell() }) { tmux, _ in
            try await waitForPrompt(in: tmux)
            let before = try await sttyModes(in: tmux, marker: 1)
            let pid = try await startBibreadInShell(tmux, prefix: "ulimit -c 0; ")
            #expect(Glibc.kill(pid, signal.number) == 0)
            do {
                try await tmux.waitUntil("bibread (pid \(pid)) to end after \(signal)", settled: false) { _ in !Processes.isRunning(pid) }
            } catch {
                let alternate = (try? await tmux.format("#{alternate_on}")) ?? "?"
                Glibc.kill(pid, SIGKILL)
                throw EndToEndFailure("""
                    bibread (pid \(pid)) was still running 10 s after \(signal) \
                    (tmux alternate screen on: \(alternate)); expected it to exit with status \(128 + signal.number). \
                    \(error)
                    """)
            }
            try await expectTerminalRestored(tmux, before: before, status: 128 + signal.number)
        }
    }

    @Test("A signal ends bibread within 1 s even while its loop is stuck (in a render that never ends), and gives the terminal back",
          .serialized, arguments: [TerminationSignal.terminate, .interrupt, .hangUp])
    func signalsEndAStuckLoop(_ signal: TerminationSignal) async throws {
        try await withSession(command: { $0.shell() }) { tmux, _ in
            try await waitForPrompt(in: tmux)
            let before = try await sttyModes(in: tmux, marker: 1)
            // The test hook of `bibread-dev reader` spins on the main thread right after the
            // first screen is drawn, as a render of a huge value did (issue 26, item 5): the loop
            // never comes back to read the flag the signal handler sets.
            let pid = try await startBibreadInShell(tmux, prefix: "BIBREAD_TEST_CRASH=busy-loop ",
                                                    executable: ProcessRunner.developmentExecutable, arguments: "reader ")
            let clock = ContinuousClock()
            let start = clock.now
            #expect(Glibc.kill(pid, signal.number) == 0)
            let bound = TestTiming.duration(.seconds(1))
            let took = try await Processes.timeToEnd(pid, since: start, limit: bound * 10)
            #expect(took.map { $0 <= bound } == true,
                    "bibread (pid \(pid)) \(took.map { "ended \($0)" } ?? "was still running 10 s") after \(signal) (bound \(bound))")
            try await expectTerminalRestored(tmux, before: before, status: took == nil ? 128 + SIGKILL : 128 + signal.number)
        }
    }

    @Test("A Swift runtime trap (fatalError) gives the terminal back and shows the crash message after the screen")
    func fatalErrorRestoresTheTerminal() async throws {
        // fatalError traps with ud2 (SIGILL) on x86_64 and brk (SIGTRAP) on arm64.
        #if arch(x86_64)
        let trap = SIGILL
        #else
        let trap = SIGTRAP
        #endif
        let message = "Fatal error: BIBREAD_TEST_CRASH=fatal-error: crashing on purpose after the first screen"
        try await withSession(command: { $0.shell() }) { tmux, sandbox in
            try await waitForPrompt(in: tmux)
            let before = try await sttyModes(in: tmux, marker: 1)
            // The test hook of `bibread-dev reader` calls fatalError right after the first screen is drawn.
            try await tmux.type("ulimit -c 0; BIBREAD_TEST_CRASH=fatal-error '\(ProcessRunner.developmentExecutable.path)' reader '\(Self.library)'")
            try await tmux.sendKeys("Enter")
            // The message went to the log while the screen was up, and is on the shell's own
            // screen now: written after the alternate screen was left (what is written on the
            // alternate screen goes with it).
            let screen = try await tmux.waitUntil("the crash message on the main screen") { text in
                guard text.contains(message) else { return false }
                return try await tmux.format("#{alternate_on}") == "0"
            }
            let rows = Tmux.rows(of: screen)
            let command = rows.lastIndex { $0.contains("BIBREAD_TEST_CRASH=fatal-error '") } ?? rows.count
            #expect(rows.indices.contains { $0 > command && rows[$0].contains(message) }, "the message below the command line\n\(screen)")
            let log = (try? String(contentsOf: sandbox.state.appendingPathComponent("bibread/stderr.log"), encoding: .utf8)) ?? ""
            #expect(log.contains(message), "stderr.log, captured while the screen was up: \(log)")
            try await expectTerminalRestored(tmux, before: before, status: 128 + trap)
        }
    }

    @Test("A silent trap on a background thread (an optimized build's failed check) still says that bibread crashed, and where the log is")
    func silentTrapOnAWorkerIsReported() async throws {
        try await withSession(command: { $0.shell() }) { tmux, sandbox in
            try await waitForPrompt(in: tmux)
            let before = try await sttyModes(in: tmux, marker: 1)
            try await tmux.type("ulimit -c 0; BIBREAD_TEST_CRASH=worker-trap '\(ProcessRunner.developmentExecutable.path)' reader '\(Self.library)'")
            try await tmux.sendKeys("Enter")
            let logPath = sandbox.state.appendingPathComponent("bibread/stderr.log").path
            let screen = try await tmux.waitUntil("the crash report on the main screen") { text in
                guard text.replacingOccurrences(of: "\n", with: "").contains("bibread crashed: a check failed (SIGILL)") else { return false }
                return try await tmux.format("#{alternate_on}") == "0"
            }
            #expect(screen.replacingOccurrences(of: "\n", with: "").contains(logPath), "the report names the log\n\(screen)")
            // The loop's thread goes on drawing while the worker crashes: no frame of it may
            // land on the shell's screen after the terminal is given back.
            #expect(!screen.contains("Without PDF") && !screen.contains("References"), "a frame of the reader on the shell's screen\n\(screen)")
            let log = (try? String(contentsOf: URL(fileURLWithPath: logPath), encoding: .utf8)) ?? ""
            #expect(log.contains("bibread crashed: a check failed (SIGILL)"), "the report is in stderr.log too: \(log)")
            try await expectTerminalRestored(tmux, before: before, status: 128 + SIGILL)
        }
    }

    // MARK: - State

    @Test("The group, selection and sort come back on the next start")
    func stateIsRestored() async throws {
        let members = try await SampleLibrary(["--group", "Typesetting"])
        let samples = try await SampleLibrary()
        try await withSession(command: { $0.bibread([Self.library]) }) { tmux, sandbox in
            var screen = try await waitForSamplesReady(in: tmux, samples)
            let count = try #require(screen.groupCount("Typesetting"))
            let index = try #require(screen.groupIndex("Typesetting"))
            let all = try #require(screen.groupIndex("All"))
            #expect(count == members.references.count)
            try await tmux.sendKeys("BTab")
            try await tmux.sendKeys("g")
            for _ in all..<index { try await tmux.sendKeys("j") }
            try await tmux.sendKeys("Enter")
            try await tmux.waitUntil("the status line “\(count) of 25 · Typesetting”") {
                Screen($0).statusLine.hasPrefix(" \(count) of 25 · Typesetting")
            }
            try await tmux.sendKeys("s")
            screen = Screen(try await tmux.waitUntil("the list sorted by year (newest first)") {
                let screen = Screen($0)
                let years = screen.listRows.compactMap { Int($0.year) }
                return screen.rows.first?.contains("sorted by year") == true && years.count == count
                    && zip(years, years.dropFirst()).allSatisfy { $0 >= $1 }
            })
            let listTitle = screen.rows[0].split(separator: "│", omittingEmptySubsequences: false).dropFirst().first ?? ""
            let sortTitle = try #require(listTitle.firstRange(of: "sorted by").map { listTitle[$0.lowerBound...].trimmingCharacters(in: .whitespaces) })
            // The selection stays on its reference when the order changes: go to the top first.
            try await tmux.sendKeys("g")
            try await tmux.sendKeys("j")
            try await tmux.sendKeys("j")
            let keys = screen.listRows.compactMap(members.key(of:))
            try #require(keys.count == count, "list rows: \(screen.listRows)")
            let selected = keys[2]
            try await waitForDetails(of: selected, in: tmux)

            try await tmux.sendKeys("q")
            try await expectCleanExit(tmux)
            let stateFile = sandbox.state.appendingPathComponent("bibread/state.json")
            #expect(FileManager.default.fileExists(atPath: stateFile.path), "state saved to \(stateFile.path)")

            // Same command, same XDG_STATE_HOME.
            try await tmux.respawn()
            try await tmux.waitUntil("""
                the restored session: “\(count) of 25 · Typesetting”, “\(sortTitle)” in the same order, \
                \(selected) in the details
                """) { text in
                let screen = Screen(text)
                return screen.statusLine.hasPrefix(" \(count) of 25 · Typesetting")
                    && screen.rows.first?.contains(sortTitle) == true
                    && screen.listRows.compactMap(members.key(of:)) == keys
                    && screen.detailsTitleKey.map { Screen.matches(shown: $0, full: selected) } == true
            }
            try await tmux.sendKeys("q")
            try await expectCleanExit(tmux)
        }
    }

    // MARK: - Start-up variants

    @Test("With no library and no config: the welcome screen, and q quits")
    func welcomeWithoutLibrary() async throws {
        try await withSession(command: { $0.bibread([]) }) { tmux, _ in
            let screen = Screen(try await tmux.waitFor("No library is open"))
            #expect(screen.text.contains("bibread"))
            try await tmux.sendKeys("q")
            try await expectCleanExit(tmux)
        }
    }

    @Test("NO_COLOR=1 opens the samples with no colour at all (and without it there is colour); q quits",
          arguments: [true, false])
    func noColor(_ noColor: Bool) async throws {
        let environment = noColor ? ["NO_COLOR": "1"] : [:]
        try await withSession(command: { $0.bibread([Self.library], environment: environment) }) { tmux, _ in
            try await tmux.waitUntil("three panes and 25 of 25") {
                let screen = Screen($0)
                return screen.hasThreePanes && screen.statusLine.hasPrefix(" 25 of 25 · All")
            }
            let colours = Self.colourParameters(in: try await tmux.capture(escapes: true))
            if noColor {
                #expect(colours.isEmpty, "NO_COLOR=1 but the screen uses colours: \(colours.prefix(10))")
            } else {
                #expect(!colours.isEmpty, "without NO_COLOR the screen should use colours (TERM=xterm-256color)")
            }
            try await tmux.sendKeys("q")
            try await expectCleanExit(tmux)
        }
    }

    // MARK: - Reading, help, sort

    @Test("poppler-glib is loaded with the first PDF read, not by the library view (it maps some 230 files and 7 MB)")
    func popplerIsLoadedWithTheFirstPDF() async throws {
        // A library that links no PDF: nothing the library view does needs poppler (with PDFs,
        // the full-text index's background update reads them, and loads it for that).
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("library.bib")
        try Data("""
            @book{knuth1984texbook, author = {Donald E. Knuth}, title = {The {\\TeX}book}, year = {1984}}
            @article{turing1936computable, author = {Alan Turing}, title = {On Computable Numbers}, year = {1936}, journal = {Proc. LMS}}

            """.utf8).write(to: library)
        try await withSession(command: { $0.bibread([library.path]) }) { tmux, _ in
            try await tmux.waitUntil("both references listed") { Screen($0).statusLine.hasPrefix(" 2 of 2 · All") }
            let pid = try await tmux.panePID()
            try await Processes.waitUntilIdle(pid)
            #expect(try !Self.mapsPoppler(pid), "the library view loaded poppler-glib")
            try await tmux.sendKeys("q")
            try await expectCleanExit(tmux)
        }

        // The check sees poppler once a PDF is read.
        let samples = try await SampleLibrary()
        try await withSession(command: { $0.bibread([Self.library]) }) { tmux, _ in
            try await waitForSamplesReady(in: tmux, samples)
            let pid = try await tmux.panePID()
            try await tmux.sendKeys("/")
            try await tmux.waitUntil("the search bar to take input") { Screen($0).searchBar.trimmingCharacters(in: .whitespaces) == "/" }
            try await tmux.type("texbook")
            try await tmux.waitUntil("1 of 25 · All · search: texbook") { Screen($0).statusLine.hasPrefix(" 1 of 25 · All · search: texbook") }
            try await tmux.sendKeys("Enter")
            try await waitForDetails(of: "knuth1984texbook", in: tmux)
            try await tmux.sendKeys("Enter")
            try await tmux.waitUntil("the reading view at page 1 of 5") { Self.isReadingStatus(Screen($0).statusLine, page: 1, of: 5, percent: 20) }
            #expect(try Self.mapsPoppler(pid), "reading a PDF maps poppler-glib (the check can see it)")
            try await tmux.sendKeys("q")
            try await tmux.waitUntil("back in the library") { Screen($0).hasThreePanes }
            try await tmux.sendKeys("q")
            try await expectCleanExit(tmux)
        }
    }

    /// Whether the process `pid` has poppler-glib mapped.
    static func mapsPoppler(_ pid: Int32) throws -> Bool {
        try Processes.maps(of: pid).contains("libpoppler-glib")
    }

    @Test("Enter reads a PDF (] turns the page, q goes back); ? shows help; s cycles the sort")
    func readingHelpAndSort() async throws {
        let samples = try await SampleLibrary()
        try await withSession(command: { $0.bibread([Self.library]) }) { tmux, _ in
            try await waitForSamplesReady(in: tmux, samples)
            try await tmux.sendKeys("/")
            try await tmux.waitUntil("the search bar to take input") { Screen($0).searchBar.trimmingCharacters(in: .whitespaces) == "/" }
            try await tmux.type("texbook")
            try await tmux.waitUntil("1 of 25 · All · search: texbook") { Screen($0).statusLine.hasPrefix(" 1 of 25 · All · search: texbook") }
            try await tmux.sendKeys("Enter")
            try await tmux.waitUntil("the list to have the keys again") { Screen($0).statusLine.hasSuffix("q quit") }
            try await waitForDetails(of: "knuth1984texbook", in: tmux)

            try await tmux.sendKeys("Enter")
            var screen = Screen(try await tmux.waitUntil("the reading view at page 1 of 5") {
                Self.isReadingStatus(Screen($0).statusLine, page: 1, of: 5, percent: 20)
            })
            #expect(screen.rows.first?.contains("The TeXbook") == true, "reading view title\n\(screen.text)")
            #expect(screen.text.contains("TeX"), "page text")
            try await tmux.sendKeys("]")
            try await tmux.waitUntil("page 2 of 5") { Self.isReadingStatus(Screen($0).statusLine, page: 2, of: 5, percent: 40) }
            try await tmux.sendKeys("q")
            screen = Screen(try await tmux.waitUntil("back in the library, still filtered (1 of 25 · All · search: texbook)") {
                let screen = Screen($0)
                return screen.hasThreePanes && screen.statusLine.hasPrefix(" 1 of 25 · All · search: texbook")
            })
            let stillRunning = try await tmux.exitStatus() == nil
            #expect(stillRunning, "q in the reading view only goes back")

            try await tmux.sendKeys("?")
            try await tmux.waitFor("Help — any other key closes")
            try await tmux.sendKeys("x")
            screen = Screen(try await tmux.waitUntil("the help to close") { !$0.contains("Help — any other key closes") })
            #expect(screen.statusLine.hasPrefix(" 1 of 25 · All · search: texbook"), "the key that closed help did nothing else")

            for sort in ["year", "title", "date added", "last read", "author"] {
                try await tmux.sendKeys("s")
                try await tmux.waitUntil("the list sorted by \(sort)") {
                    Screen($0).rows.first?.contains("sorted by \(sort)") == true
                }
            }
            try await tmux.sendKeys("q")
            try await expectCleanExit(tmux)
        }
    }
}

// MARK: - Helpers

/// The signals sent from outside, with what the shell should report afterwards.
enum TerminationSignal: Sendable, CustomTestStringConvertible, CustomStringConvertible {
    case terminate, interrupt, hangUp, segmentationFault

    var number: Int32 {
        switch self {
        case .terminate: SIGTERM
        case .interrupt: SIGINT
        case .hangUp: SIGHUP
        case .segmentationFault: SIGSEGV
        }
    }

    var description: String {
        switch self {
        case .terminate: "SIGTERM"
        case .interrupt: "SIGINT"
        case .hangUp: "SIGHUP"
        case .segmentationFault: "SIGSEGV"
        }
    }

    var testDescription: String { description }
}

extension ReaderEndToEndTests {
    /// Runs `body` with a fresh sandbox and a tmux session running `command`, then stops the
    /// server and removes the sandbox, whatever happened.
    func withSession(width: Int = 120, height: Int = 40, command: (Sandbox) -> [String],
                     _ body: (Tmux, Sandbox) async throws -> Void) async throws {
        let binary = ProcessRunner.bibreadExecutable
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw EndToEndFailure("bibread is not built at \(binary.path); run swift build --build-tests first")
        }
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let tmux = try await Tmux.start(width: width, height: height, command: command(sandbox), in: sandbox)
        do {
            try await body(tmux, sandbox)
        } catch {
            await tmux.kill()
            throw error
        }
        await tmux.kill()
    }

    /// From the samples' list (once all 25 are there), searches `key:KEY` and opens its PDF.
    func openSamplePDF(key: String, in tmux: Tmux) async throws {
        try await tmux.waitFor("25 of 25")
        try await tmux.sendKeys("/")
        try await tmux.type("key:\(key)")
        try await tmux.sendKeys("Enter")
        try await tmux.waitFor("1 of 25")
        try await tmux.sendKeys("Enter")
    }

    /// Waits for the program in the pane to exit and expects status 0.
    func expectCleanExit(_ tmux: Tmux, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let status = try await tmux.waitForExit()
        let screen = (try? await tmux.capture()) ?? ""
        let pane = (try? await tmux.format("status #{pane_dead_status}, signal #{pane_dead_signal}")) ?? "?"
        #expect(status == 0, "exit status \(status) (tmux: \(pane))\n\(screen)", sourceLocation: sourceLocation)
    }

    /// Waits until the samples are fully up at 120×40: three panes, every group counted, the
    /// list sorted (by author) and its first row selected, shown in the details. (While the
    /// library loads, the details can show the first reference in file order for a moment.)
    @discardableResult
    func waitForSamplesReady(in tmux: Tmux, _ samples: SampleLibrary) async throws -> Screen {
        Screen(try await tmux.waitUntil("three panes, All 25 counted, the first row of the sorted list in the details") { text in
            let screen = Screen(text)
            guard screen.hasThreePanes, screen.statusLine.hasPrefix(" 25 of 25 · All"), screen.groupCount("All") == 25,
                  screen.groupRows.allSatisfy({ !$0.hasSuffix("…") }),
                  let first = screen.listRows.first.flatMap(samples.key(of:)) else { return false }
            return screen.detailsTitleKey.map { Screen.matches(shown: $0, full: first) } == true
        })
    }

    /// Waits until the details pane's title is the cite key `key` (cut short or not).
    func waitForDetails(of key: String, in tmux: Tmux) async throws {
        try await tmux.waitUntil("the details title to show \(key)") { text in
            Screen(text).detailsTitleKey.map { Screen.matches(shown: $0, full: key) } ?? false
        }
    }

    /// Waits for bash's `$ ` prompt.
    func waitForPrompt(in tmux: Tmux) async throws {
        try await tmux.waitUntil("the shell prompt “$”") { text in
            Tmux.rows(of: text).contains { $0 == "$" }
        }
    }

    /// Types the bibread command in the shell (or `executable` with `arguments` before the
    /// library), waits for the reader, returns bibread's pid.
    func startBibreadInShell(_ tmux: Tmux, prefix: String = "", executable: URL = ProcessRunner.bibreadExecutable,
                             arguments: String = "") async throws -> Int32 {
        let command = "\(prefix)'\(executable.path)' \(arguments)'\(Self.library)'"
        try await tmux.type(command)
        try await tmux.sendKeys("Enter")
        try await tmux.waitUntil("bibread to open the samples (25 of 25 · All on the alternate screen)") { text in
            guard Screen(text).statusLine.hasPrefix(" 25 of 25 · All") else { return false }
            return try await tmux.format("#{alternate_on}") == "1"
        }
        let shell = try await tmux.panePID()
        let children = Processes.children(of: shell, named: executable.lastPathComponent)
        guard children.count == 1 else {
            throw EndToEndFailure("expected one \(executable.lastPathComponent) process under the shell (pid \(shell)), found \(children)")
        }
        return children[0]
    }

    /// Runs `stty -a` in the shell between two markers and returns its words.
    func sttyModes(in tmux: Tmux, marker: Int) async throws -> [String] {
        let begin = "stty-\(1000 + marker)"
        let end = "stty-\(2000 + marker)"
        try await tmux.type("echo stty-$((1000+\(marker))); stty -a; echo stty-$((2000+\(marker)))")
        try await tmux.sendKeys("Enter")
        let rows = Tmux.rows(of: try await tmux.waitUntil("the output of stty -a") { Tmux.rows(of: $0).contains(end) })
        guard let first = rows.lastIndex(of: begin), let last = rows.lastIndex(of: end), first < last else {
            throw EndToEndFailure("no stty -a output between \(begin) and \(end)", screen: rows.joined(separator: "\n"))
        }
        return rows[(first + 1)..<last].joined(separator: " ")
            .split(whereSeparator: { $0 == " " || $0 == ";" }).map(String.init)
    }

    /// After bibread ended: the main screen is back with the cursor shown and mouse and keypad
    /// modes off; the shell runs commands and echoes; `$?` is `status`; `stty -a` shows
    /// canonical mode with echo and the very modes the shell had before bibread started.
    func expectTerminalRestored(_ tmux: Tmux, before: [String], status: Int32) async throws {
        try await tmux.waitForFormat("alternate screen=#{alternate_on} cursor=#{cursor_flag} mouse=#{mouse_any_flag} keypad=#{keypad_cursor_flag}",
                                     toBe: "alternate screen=0 cursor=1 mouse=0 keypad=0")

        try await tmux.type("echo status-$? done-$((6*7))")
        try await tmux.sendKeys("Enter")
        let screen = try await tmux.waitUntil("the shell to run echo (done-42)") { $0.contains("done-42") }
        let line = Tmux.rows(of: screen).last { $0.hasSuffix(" done-42") } ?? ""
        #expect(line == "status-\(status) done-42", "exit status as the shell saw it\n\(screen)")

        let after = try await sttyModes(in: tmux, marker: 2)
        for mode in ["icanon", "echo", "isig"] {
            #expect(after.contains(mode) && !after.contains("-\(mode)"), "stty -a after bibread lacks \(mode): \(after.joined(separator: " "))")
        }
        #expect(after == before, "stty -a differs from before bibread: \(Set(after).symmetricDifference(before).sorted())")
    }

    /// Whether a status line is the reading view's for page `page` of The TeXbook's PDF:
    /// `p. 1 / 5 · 20% · knuth1984texbook`, also with the printed page first where it differs
    /// (`p. i (1 of 5)`) and the title in place of the cite key (`· The TeXbook`), as the reading
    /// view now shows them.
    static func isReadingStatus(_ line: String, page: Int, of pages: Int, percent: Int) -> Bool {
        let plain = line.firstMatch(of: /^ p\. (\d+) \/ (\d+) · (\d+)% · (.+?)\s{2,}/).map { ($0.1, $0.2, $0.3, $0.4) }
        let labelled = line.firstMatch(of: /^ p\. [^ ]+ \((\d+) of (\d+)\) · (\d+)% · (.+?)\s{2,}/).map { ($0.1, $0.2, $0.3, $0.4) }
        guard let match = plain ?? labelled else { return false }
        return Int(match.0) == page && Int(match.1) == pages && Int(match.2) == percent
            && ["knuth1984texbook", "The TeXbook"].contains(String(match.3))
    }

    /// The colour parameters (foreground, background: 30–38, 40–48, 90–97, 100–107) of the SGR
    /// sequences in a `capture-pane -e` screen.
    static func colourParameters(in screen: String) -> [String] {
        var colours: [String] = []
        for match in screen.matches(of: /\x1B\[([0-9;:]*)m/) {
            for parameter in match.1.split(separator: ";") {
                guard let value = Int(parameter.split(separator: ":").first ?? "") else { continue }
                if (30...38).contains(value) || (40...48).contains(value) || (90...97).contains(value) || (100...107).contains(value) {
                    colours.append(String(match.1))
                    break
                }
            }
        }
        return colours
    }
}
