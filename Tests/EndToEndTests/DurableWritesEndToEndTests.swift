import BibreadTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A bookmark or a note the reader confirms is in the store, even when the reader is killed
/// right after the message (issue 26, item 3: "Bookmarked p. N" and "Saved the note" showed
/// before the write, which waited on the bulk queue behind the work of a big library; a kill
/// right after the message lost 6 of 24).
@Suite("Bookmarks and notes survive kill -9 right after their message (tmux)", .onOwnThreads)
struct DurableWritesEndToEndTests {
    /// How many kills: `BIBREAD_KILL_ROUNDS`, else 12 (half bookmarks, half notes; about 2.5 s
    /// each).
    static let rounds = ProcessInfo.processInfo.environment["BIBREAD_KILL_ROUNDS"].flatMap(Int.init) ?? 12

    @Test("m or C-s, then kill -9 as soon as the message shows, while the bulk queue counts a 26 MB library: the row is in state.sqlite")
    func confirmedMeansCommitted() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The shared corpora's 26 MB concatenation: counting its groups keeps the bulk queue busy
        // for many seconds after the reader starts.
        let bench = folder.appendingPathComponent("bench.bib")
        let made = try await ToolRunner.run(Fixtures.corpus("make-bench-corpus.sh").path, [bench.path], timeout: .seconds(120))
        try #require(made.status == 0, "make-bench-corpus.sh: \(made.standardError)")
        var lost: [String] = []
        for round in 0..<Self.rounds {
            let page = 2 + round % 10
            let note = round % 2 == 1
            let what = note ? "the note on p. \(page)" : "the bookmark on p. \(page)"
            if let problem = try await killAfterConfirmation(page: page, note: note, round: round, bench: bench) {
                lost.append("round \(round + 1), \(what): \(problem)")
            }
        }
        #expect(lost.isEmpty, "\(lost.count) of \(Self.rounds) confirmed writes missing after kill -9:\n\(lost.joined(separator: "\n"))")
    }

    /// One round in a fresh state folder: opens Gödel's paper at `page`, bookmarks it (or
    /// writes a note), kills the reader with SIGKILL as soon as the confirmation is on screen,
    /// and looks in the store; nil when the row is there, else what is wrong.
    func killAfterConfirmation(page: Int, note: Bool, round: Int, bench: URL) async throws -> String? {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let command = sandbox.bibread(["open", "goedel1931formal:\(page)", "--library", SampleLibrary.path, "--library", bench.path])
        let tmux = try await Tmux.start(width: 120, height: 40, command: command, in: sandbox)
        let text = "Round \(round + 1) note"
        do {
            let pid = try await tmux.panePID()
            try await tmux.waitFor("p. \(page) / 11")
            if note {
                try await tmux.sendKeys("n")
                try await tmux.waitFor("Note on p. \(page)")
                try await tmux.type(text)
                try await tmux.sendKeys("C-s")
                try await tmux.waitUntil("“Saved the note on p. \(page)”", settled: false) { $0.contains("Saved the note on p. \(page)") }
            } else {
                try await tmux.sendKeys("m")
                try await tmux.waitUntil("“Bookmarked p. \(page)”", settled: false) { $0.contains("Bookmarked p. \(page)") }
            }
            #expect(kill(pid, SIGKILL) == 0)
            _ = try await tmux.waitForExit()
        } catch {
            await tmux.kill()
            throw error
        }
        await tmux.kill()
        let store = sandbox.state.appendingPathComponent("bibread/state.sqlite").path
        let query = note
            ? "SELECT text FROM page_note WHERE cite_key = 'goedel1931formal' AND page = \(page)"
            : "SELECT count(*) FROM bookmark_node WHERE kind = 'bookmark' AND cite_key = 'goedel1931formal' AND page = \(page)"
        let found = try await Self.sqlite(store, query)
        let expected = note ? text : "1"
        return found == expected ? nil : "the store holds “\(found)”, expected “\(expected)”"
    }

    /// The rows of `query` on the SQLite file at `path`, read by SQLite itself (Python's
    /// sqlite3, which also reads what the write-ahead log holds), one per line.
    static func sqlite(_ path: String, _ query: String) async throws -> String {
        let script = """
            import sqlite3, sys
            rows = sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchall()
            print("\\n".join(str(row[0]) for row in rows))
            """
        let result = try await ToolRunner.run("/usr/bin/env", ["python3", "-c", script, path, query], timeout: .seconds(30))
        guard result.status == 0 else { throw EndToEndFailure("python3 sqlite3 \(path): \(result.standardError)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
