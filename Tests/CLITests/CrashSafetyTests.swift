import BibreadTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Crash safety: bibread killed with SIGKILL while it writes reading positions, bookmarks,
/// page notes, the session file or the PDF cache never leaves them corrupt or half written.
///
/// The real binary is killed at random moments (5–200 ms, from a seeded generator: each test
/// prints its seed, and `BIBREAD_TEST_SEED=N` replays a run), then the stores are opened again
/// through the real CLI and through the `sqlite3` program, checked with `PRAGMA integrity_check`,
/// and their contents compared with what the writer wrote.
@Suite("Crash safety: SIGKILL while writing")
struct CrashSafetyTests {
    // MARK: - The stores, killed while `bibread-dev write-stress` writes them

    @Test("Killed 50 times while writing, every store opens, passes its integrity check and holds some prefix of the writes")
    func killedWhileWritingTheStores() throws {
        var random = SeededGenerator.forTest("killedWhileWritingTheStores")
        let sandbox = try StressSandbox()
        defer { sandbox.remove() }
        var lastRound = 0
        var cutShort = 0
        let started = Date()
        for iteration in 0..<50 {
            // Most kills are timed from the first line (the stores are open, writes under way);
            // every fifth from the start, to catch opening and migrating too.
            let fromStart = iteration % 5 == 0
            let delay = Int.random(in: 5...200, using: &random.generator)
            let run = try KilledRun(ProcessRunner.developmentExecutable, sandbox.stressArguments(), environment: sandbox.environment,
                                    kill: fromStart ? .afterStart(milliseconds: delay) : .afterFirstLine(milliseconds: delay),
                                    scratch: sandbox.root)
            let place = "iteration \(iteration), killed \(delay) ms after \(fromStart ? "start" : "its first line") (seed \(random.seed))"
            try #require(run.killed, "\(place): write-stress ended by itself (status \(run.status)): \(run.standardError)")
            let (round, complete) = try sandbox.checkAfterKill(place: place, sqliteFirst: iteration % 2 == 0, readResume: iteration % 10 == 9)
            #expect(round >= lastRound, "\(place): the round counter went back from \(lastRound) to \(round)")
            if !complete { cutShort += 1 }
            lastRound = round
        }
        // The kills landed in writes, not only before them: rounds were written.
        #expect(lastRound >= 10, "only \(lastRound) rounds were written in 50 runs (seed \(random.seed))")

        // Left alone, it finishes rounds; the last one complete is exactly what every store holds.
        let final = lastRound + 2
        let finish = try ProcessRunner.development(sandbox.stressArguments() + ["--rounds", String(final)], environment: sandbox.environment)
        #expect(finish.status == 0, "\(finish.standardError)")
        let contents = try sandbox.read("after round \(final)")
        #expect(StressSandbox.round(contents) == final)
        for unit in sandbox.units(contents, round: final) {
            #expect(unit.observed == unit.value(final), "after round \(final) complete, \(unit.name) holds \(unit.observed)")
        }
        let strays = try sandbox.strayTemporaryFiles()
        #expect(strays.isEmpty, "temporary files left beside state.json: \(strays)")
        print("killedWhileWritingTheStores: 50 kills, \(lastRound) rounds written, \(cutShort) cut a round short, "
              + "\(String(format: "%.1f", Date().timeIntervalSince(started))) s")
    }

    // MARK: - A real sync, killed mid-download

    @Test("A sync from WebDAV killed 30 times mid-download never leaves a half file in place; the next sync completes it")
    func syncKilledMidDownload() throws {
        var random = SeededGenerator.forTest("syncKilledMidDownload")
        let remote = try KilledSyncSetup(random: &random.generator)
        defer { remote.remove() }
        var partsSeen = 0
        var staleRecords = 0
        var finishedOnItsOwn = 0
        let started = Date()
        for iteration in 0..<30 {
            // Even runs are killed at a random moment (in start-up, listing, renaming, ...);
            // odd ones a moment after a download began, so that however fast this machine
            // fetches, some kills land mid-download. Those runs always have a file to fetch.
            let midDownload = iteration % 2 == 1
            // The remote changes now and then: a .part of the old version must not be resumed.
            let changes = Int.random(in: (midDownload ? 1 : 0)...2, using: &random.generator)
            for _ in 0..<changes {
                let index = Int.random(in: 0..<KilledSyncSetup.fileCount, using: &random.generator)
                try remote.replace(index, random: &random.generator)
            }
            let moment: KillMoment
            let place: String
            if midDownload {
                let delay = Int.random(in: 0...2000, using: &random.generator)
                moment = .afterFileAppears(under: remote.cache, suffix: ".part", microseconds: delay)
                place = "iteration \(iteration), killed \(delay) µs after a .part appeared (seed \(random.seed))"
            } else {
                let delay = Int.random(in: 5...200, using: &random.generator)
                moment = .afterStart(milliseconds: delay)
                place = "iteration \(iteration), killed \(delay) ms after start (seed \(random.seed))"
            }
            let run = try KilledRun(ProcessRunner.bibreadExecutable, ["sync", "lab", "--all-pdfs"], environment: remote.environment,
                                    kill: moment, scratch: remote.root)
            if !run.killed {
                finishedOnItsOwn += 1
                #expect(run.status == 0, "\(place): the sync failed before the kill: \(run.standardError)")
            }
            let found = try remote.checkCache(place: place)
            partsSeen += found.parts
            staleRecords += found.staleRecords
        }

        let final = try ProcessRunner.bibread(["sync", "lab", "--all-pdfs"], environment: remote.environment)
        #expect(final.status == 0, "the sync after the kills: \(final.standardError)")
        try remote.expectComplete()
        print("syncKilledMidDownload: 30 kills, \(partsSeen) times a .part was left, \(staleRecords) stale records, "
              + "\(finishedOnItsOwn) syncs finished before the kill, \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        #expect(partsSeen > 0, "no kill landed mid-download (seed \(random.seed)), not even those timed from a .part appearing")
    }
}

// MARK: - Running and killing

/// When `KilledRun` sends SIGKILL.
enum KillMoment {
    /// This many milliseconds after the program started.
    case afterStart(milliseconds: Int)
    /// This many milliseconds after the program printed its first line.
    case afterFirstLine(milliseconds: Int)
    /// This many microseconds after a file whose name ends in `suffix` appeared or grew
    /// anywhere under `directory` (looked for every 200 µs), so that the kill lands mid-write
    /// however fast the machine is; never, if the program ends first.
    case afterFileAppears(under: URL, suffix: String, microseconds: Int)
}

/// A program run and killed with SIGKILL at a chosen moment.
struct KilledRun {
    /// Whether SIGKILL ended it (false: it had ended by itself).
    let killed: Bool
    let status: Int32
    let standardError: String

    init(_ executable: URL, _ arguments: [String], environment: [String: String], kill moment: KillMoment, scratch: URL) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let errorFile = scratch.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errors = try FileHandle(forWritingTo: errorFile)
        if case .afterFirstLine = moment {
            process.standardOutput = output
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        var before: [String: Int] = [:]
        if case .afterFileAppears(let directory, let suffix, _) = moment {
            before = Self.sizes(under: directory, suffix: suffix)
        }
        try process.run()
        try? errors.close()
        switch moment {
        case .afterStart(let milliseconds):
            usleep(UInt32(milliseconds) * 1000)
        case .afterFirstLine(let milliseconds):
            var seen = Data()
            while !seen.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                seen.append(chunk)
            }
            usleep(UInt32(milliseconds) * 1000)
        case .afterFileAppears(let directory, let suffix, let microseconds):
            while process.isRunning {
                if Self.sizes(under: directory, suffix: suffix).contains(where: { before[$0.key] != $0.value }) {
                    usleep(UInt32(microseconds))
                    break
                }
                usleep(200)
            }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? output.fileHandleForReading.close()
        killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
        status = process.terminationStatus
        standardError = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
    }

    /// The size of each file under `directory` whose name ends in `suffix`, by relative path.
    private static func sizes(under directory: URL, suffix: String) -> [String: Int] {
        var sizes: [String: Int] = [:]
        guard let names = FileManager.default.enumerator(atPath: directory.path) else { return sizes }
        for case let name as String in names where name.hasSuffix(suffix) {
            var status = stat()
            if stat(directory.appendingPathComponent(name).path, &status) == 0 { sizes[name] = Int(status.st_size) }
        }
        return sizes
    }
}

/// Runs `sqlite3` on a database: `PRAGMA` checks and queries as JSON rows.
enum SQLite {
    static func run(_ database: URL, _ sql: String, json: Bool = false) throws -> String {
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["sqlite3"] + (json ? ["-json"] : []) + [database.path, sql])
        guard result.status == 0 else { throw CrashCheckFailure("sqlite3 \(database.lastPathComponent) '\(sql)': \(result.standardError)") }
        return result.standardOutput
    }

    static func rows(_ database: URL, _ sql: String) throws -> [[String: Any]] {
        let text = try run(database, sql, json: true)
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return [] }
        return try (JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]) ?? []
    }

    /// `integrity_check` says ok and `foreign_key_check` finds nothing (it prints nothing).
    static func expectIntact(_ database: URL, _ place: String) throws {
        let answer = try run(database, "PRAGMA integrity_check; PRAGMA foreign_key_check").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(answer == "ok", "\(place): integrity_check and foreign_key_check of \(database.lastPathComponent): \(answer)")
    }
}

struct CrashCheckFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Parses JSON printed by a command.
private func json(_ result: ProcessResult, _ what: String) throws -> Any {
    guard result.status == 0 else { throw CrashCheckFailure("\(what) exited \(result.status): \(result.standardError)") }
    return try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
}

// MARK: - What `bibread-dev write-stress` writes

/// One thing `bibread-dev write-stress` sets in each round (see WriteStressCommand, whose pattern this
/// restates): what the stores hold now, the value it has after round `x` (`absent` before
/// round 1), and what it may hold while its own step is under way.
struct StressUnit {
    let name: String
    let observed: String
    let value: (Int) -> String
    var intermediate: (Int) -> String? = { _ in nil }
}

/// What the stores hold, read once: the bookmark tree and the cache through `bibread bookmarks
/// list --json` and `bibread cache status --json`, the rest with one `sqlite3` run per database (rows with `kind`, `name`, `text`, `number`,
/// `real`).
struct StoreContents {
    let tree: [[String: Any]]
    let cacheStatus: [[String: Any]]
    let state: [[String: Any]]
    let manifest: [[String: Any]]

    static let stateQuery = """
        SELECT 'position' AS kind, fingerprint AS name, path AS text, page AS number, scroll AS real FROM position
        UNION ALL SELECT 'reading', cite_key, path, NULL, last_read FROM document_read
        UNION ALL SELECT 'note', cite_key, text, page, NULL FROM page_note
        """
    static let manifestQuery = """
        SELECT 'file' AS kind, path AS name, version AS text, size AS number FROM file
        UNION ALL SELECT 'partial', path, version, NULL FROM partial
        """

    func rows(_ kind: String, in table: [[String: Any]]) -> [[String: Any]] {
        table.filter { $0["kind"] as? String == kind }
    }
}

/// A fresh XDG sandbox with a one-entry library whose PDF `bibread-dev write-stress` saves positions of.
struct StressSandbox {
    let root: URL
    let environment: [String: String]
    var state: URL { root.appendingPathComponent("state/bibread") }
    var database: URL { state.appendingPathComponent("state.sqlite") }
    var cache: URL { root.appendingPathComponent("cache/bibread/write-stress") }
    var manifest: URL { cache.appendingPathComponent(".bibread-cache.sqlite") }
    var pdf: URL { root.appendingPathComponent("paper.pdf") }
    var library: URL { root.appendingPathComponent("library.bib") }
    static let key = "stress2024"

    init() throws {
        root = try Fixtures.temporaryDirectory()
        environment = Fixtures.isolatedEnvironment(under: root).merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        // Five pages: the saved position cycles through pages 1–4.
        try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent("papers/tex-tour.pdf"), to: pdf)
        try "@article{\(Self.key), title = {Stress}, file = {:paper.pdf:PDF}}\n".write(to: library, atomically: true, encoding: .utf8)
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }

    func stressArguments() -> [String] {
        ["write-stress", "--pdf", pdf.path, "--pages", "4"]
    }

    func strayTemporaryFiles() throws -> [String] {
        guard FileManager.default.fileExists(atPath: state.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: state.path).filter { $0.hasSuffix(".tmp") }
    }

    /// Reads every store; with `sqliteFirst`, sqlite3 opens (and checks) the databases before
    /// bibread does, else after. The rows are read once bibread has opened the stores (which
    /// finishes a migration that a kill cut short).
    func read(_ place: String, sqliteFirst: Bool = true) throws -> StoreContents {
        let databases = [database, manifest].filter { FileManager.default.fileExists(atPath: $0.path) }
        if sqliteFirst { for database in databases { try SQLite.expectIntact(database, place) } }
        let list = try json(try ProcessRunner.bibread(["bookmarks", "list", "--json"], environment: environment), "bookmarks list --json")
        let status = try json(try ProcessRunner.bibread(["cache", "status", "--json"], environment: environment), "cache status --json")
        if !sqliteFirst { for database in databases { try SQLite.expectIntact(database, place) } }
        let hasManifest = FileManager.default.fileExists(atPath: manifest.path)
        return StoreContents(tree: (list as? [String: Any])?["Children"] as? [[String: Any]] ?? [],
                             cacheStatus: status as? [[String: Any]] ?? [],
                             state: try SQLite.rows(database, StoreContents.stateQuery),
                             manifest: hasManifest ? try SQLite.rows(manifest, StoreContents.manifestQuery) : [])
    }

    /// The bytes of the cached file in round `x` (as WriteStressCommand.cacheFile makes them).
    static func cacheFile(round x: Int) -> [UInt8] {
        let body = (0..<(1000 + (x % 8) * 8192)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ x) }
        return Array("%PDF-1.4\n% bibread write-stress round \(x)\n".utf8) + body + Array("\n%%EOF\n".utf8)
    }

    /// A bookmark-list JSON node as one line: kind, name, reference or text, children.
    static func describe(_ node: [String: Any]) -> String {
        let name = node["Name"] as? String ?? "?"
        switch node["Class"] as? String {
        case "Folder":
            return "folder \(name) [" + ((node["Children"] as? [[String: Any]]) ?? []).map(describe).joined(separator: ", ") + "]"
        case "Notemark":
            return "notemark \(name): \(node["Text"] as? String ?? "")"
        default:
            let reference = node["Reference"] as? [String: Any] ?? [:]
            let last = (reference["LastPage"] as? Int).map { "-\($0)" } ?? ""
            let library = (reference["Library"] as? String).map { " in \($0)" } ?? ""
            return "bookmark \(name) \(reference["CiteKey"] as? String ?? "?") p\(reference["Page"] as? Int ?? -1)\(last)\(library)"
        }
    }

    static func importedFolder(round x: Int) -> String {
        let bookmarks = (0..<(1 + x % 5)).map { "bookmark \(x)/\($0) \($0 == 0 ? "import-\(x)" : key) p\($0 + 1)" }
        return "folder Imported round \(x) [" + (bookmarks + ["folder Folder \(x) [notemark Note \(x): round \(x)]"]).joined(separator: ", ") + "]"
    }

    static func slot(_ index: Int, round x: Int) -> String {
        guard x >= 1, index < 1 + x % 4 else { return "absent" }
        return "bookmark round \(x) slot \(index) \(key) p\(index + 1)\(index % 2 == 1 ? "-\(index + 2)" : "") in library.bib"
    }

    /// The round counter: the page of the position `write-stress-round` (0: none yet).
    static func round(_ contents: StoreContents) -> Int {
        contents.rows("position", in: contents.state).first { $0["name"] as? String == "write-stress-round" }?["number"] as? Int ?? 0
    }

    /// Every unit in the order a round writes them.
    func units(_ contents: StoreContents, round r: Int) -> [StressUnit] {
        let positions = contents.rows("position", in: contents.state)
        let round = positions.first { $0["name"] as? String == "write-stress-round" }
        let document = positions.first { $0["text"] as? String == pdf.path }
        let reading = contents.rows("reading", in: contents.state).first { $0["name"] as? String == Self.key }
        let notes = contents.rows("note", in: contents.state).filter { $0["name"] as? String == Self.key }
        func note(_ page: Int) -> String { notes.first { $0["number"] as? Int == page }?["text"] as? String ?? "absent" }
        let record = contents.rows("file", in: contents.manifest).first
        let topLevel = contents.tree.map(Self.describe)
        let imported = topLevel.filter { $0.hasPrefix("folder Imported round ") }

        var units = [
            StressUnit(name: "the round position", observed: round.map { "page \($0["number"] ?? "?") path \($0["text"] ?? "?")" } ?? "absent",
                       value: { $0 < 1 ? "absent" : "page \($0) path /write-stress/round-\($0)" }),
            StressUnit(name: "the PDF's position", observed: document.map { "page \($0["number"] ?? "?") scroll \($0["real"] as? Double ?? -1)" } ?? "absent",
                       value: { $0 < 1 ? "absent" : "page \(1 + ($0 - 1) % 4) scroll \(Double($0 % 4) / 4)" }),
            StressUnit(name: "the last reading time", observed: reading.map { "time \(($0["real"] as? Double).map { Int($0) } ?? -1)" } ?? "absent",
                       value: { $0 < 1 ? "absent" : "time \($0)" }),
        ]
        for index in 0..<4 {
            let found = topLevel.filter { $0.hasPrefix("bookmark round ") && $0.contains(" slot \(index) ") }
            units.append(StressUnit(name: "bookmark slot \(index)", observed: found.isEmpty ? "absent" : found.joined(separator: " + "),
                                    value: { Self.slot(index, round: $0) }, intermediate: { _ in "absent" }))
        }
        units += [
            StressUnit(name: "the note on page 1", observed: note(1), value: { $0 < 1 ? "absent" : "round \($0)" }),
            StressUnit(name: "the note on page 2", observed: note(2), value: { $0 < 1 || $0 % 3 == 0 ? "absent" : "round \($0), line 1\nline 2" }),
            StressUnit(name: "the imported list", observed: imported.isEmpty ? "absent" : imported.joined(separator: " + "),
                       value: { $0 < 1 ? "absent" : Self.importedFolder(round: $0) },
                       intermediate: { $0 < 2 ? nil : Self.importedFolder(round: $0 - 1) + " + " + Self.importedFolder(round: $0) }),
            StressUnit(name: "state.json", observed: session(),
                       value: { $0 < 1 ? "absent" : "group round \($0), selection \(Self.key), sort year, descending \($0 % 2 == 0)" }),
            StressUnit(name: "the cached file", observed: cachedFile(near: r),
                       value: { $0 < 1 ? "absent" : "the file of round \($0)" }),
            StressUnit(name: "the cache record", observed: record.map { "version \($0["text"] as? String ?? "?") size \($0["number"] as? Int ?? -1)" } ?? "absent",
                       value: { $0 < 1 ? "absent" : "version round-\($0) size \(Self.cacheFile(round: $0).count)" }),
        ]
        return units
    }

    private func session() -> String {
        guard let data = FileManager.default.contents(atPath: state.appendingPathComponent("state.json").path) else { return "absent" }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return "not JSON: \(String(decoding: data.prefix(80), as: UTF8.self))"
        }
        guard let session = (object["libraries"] as? [String: Any])?["/write-stress/library.bib"] as? [String: Any] else { return "no session" }
        return "group \(session["group"] ?? "?"), selection \(session["selection"] ?? "?"), sort \(session["sort"] ?? "?"), "
            + "descending \((session["descending"] as? Bool).map(String.init) ?? "?")"
    }

    private func cachedFile(near r: Int) -> String {
        guard let data = FileManager.default.contents(atPath: cache.appendingPathComponent("papers/stress.pdf").path) else { return "absent" }
        let bytes = [UInt8](data)
        for x in [r, r - 1] where x >= 1 && bytes == Self.cacheFile(round: x) { return "the file of round \(x)" }
        return "\(bytes.count) bytes of no round near \(r): \(String(decoding: bytes.prefix(48), as: UTF8.self))"
    }

    /// The index `k` such that units before it hold round `r`'s value, units after it round
    /// `r - 1`'s, and unit `k` either or its own step's intermediate; nil when there is none.
    static func prefixBoundary(_ units: [StressUnit], round r: Int) -> Int? {
        let new = units.map { $0.observed == $0.value(r) }
        let old = units.map { $0.observed == $0.value(r - 1) }
        return (0...units.count).first { k in
            units.indices.allSatisfy { index in
                if index < k { return new[index] }
                if index > k { return old[index] }
                return new[index] || old[index] || units[index].intermediate(r) == units[index].observed
            }
        }
    }

    /// Opens every store after a kill (through sqlite3 first or the CLI first), checks it, and
    /// returns the round counter and whether that round was complete.
    func checkAfterKill(place: String, sqliteFirst: Bool, readResume: Bool) throws -> (round: Int, complete: Bool) {
        let contents = try read(place, sqliteFirst: sqliteFirst)
        let r = Self.round(contents)
        let units = units(contents, round: r)
        let table = units.map { "  \($0.name): \($0.observed.debugDescription) (round \(r): \($0.value(r).debugDescription), "
            + "round \(r - 1): \($0.value(r - 1).debugDescription))" }.joined(separator: "\n")
        #expect(Self.prefixBoundary(units, round: r) != nil, "\(place): the stores hold no prefix of the writes of round \(r):\n\(table)")

        // Nothing else is there: no stray bookmarks, positions or notes.
        let described = contents.tree.map(Self.describe)
        let strays = described.filter { !$0.hasPrefix("bookmark round ") && !$0.hasPrefix("folder Imported round ") }
        #expect(strays.isEmpty, "\(place): unexpected bookmarks: \(strays)")
        let positions = contents.rows("position", in: contents.state).compactMap { $0["text"] as? String }
        #expect(positions.allSatisfy { $0 == pdf.path || $0.hasPrefix("/write-stress/round-") } && positions.count <= 2,
                "\(place): positions \(positions)")
        // The imported lists' page notes came with their folders, each in one transaction:
        // rounds 1 to the newest folder's, once each.
        let newest = described.compactMap { $0.firstMatch(of: /^folder Imported round (\d+)\s/).flatMap { Int($0.1) } }.max() ?? 0
        let found = contents.rows("note", in: contents.state).filter { $0["name"] as? String != Self.key }
            .map { "\($0["name"] ?? "?") \($0["number"] ?? "?") \($0["text"] ?? "?")" }
        let expected = (0..<newest).map { "import-\($0 + 1) 1 imported in round \($0 + 1)" }
        let differing = Set(found).symmetricDifference(expected).sorted().prefix(6)
        #expect(Set(found) == Set(expected) && found.count == expected.count,
                "\(place): page notes of imported lists (newest folder: round \(newest)): \(found.count) found, \(differing) differ")

        // The cache: a partial download noted only for the round under way; `cache status`
        // lists the file with its recorded size, never a `.part`.
        let partials = contents.rows("partial", in: contents.manifest).compactMap { $0["text"] as? String }
        #expect(partials.isEmpty || partials == ["round-\(r)"], "\(place): partial downloads \(partials) in round \(r)")
        let record = contents.rows("file", in: contents.manifest).first?["number"] as? Int
        let cached = FileManager.default.fileExists(atPath: cache.appendingPathComponent("papers/stress.pdf").path)
        let listed = (contents.cacheStatus.first { $0["remote"] as? String == "write-stress" }?["files"] as? [[String: Any]]) ?? []
        let expectedListing = record.flatMap { cached ? ["papers/stress.pdf \($0)"] : nil } ?? []
        #expect(listed.map { "\($0["path"] ?? "?") \($0["bytes"] ?? "?")" } == expectedListing,
                "\(place): cache status lists \(listed), the manifest records \(record.map(String.init) ?? "nothing")")

        if readResume {
            // `read --resume` opens the state store as a user would and finds the saved page.
            let read = try json(try ProcessRunner.bibread(["read", library.path, Self.key, "--resume", "--json"], environment: environment),
                                "read --resume --json")
            let page = (read as? [String: Any])?["page"] as? Int
            let saved = units[1].observed.firstMatch(of: /^page (\d+)\s/).flatMap { Int($0.1) } ?? 1
            #expect(page == saved, "\(place): read --resume shows page \(page.map(String.init) ?? "?"), the store holds \(units[1].observed)")
        }
        return (r, units.allSatisfy { $0.observed == $0.value(r) })
    }
}

// MARK: - The sync setup

/// A WebDAV remote of large PDFs (so that a kill lands mid-download), configured as `lab`, and
/// every version of each file it has served.
final class KilledSyncSetup {
    static let fileCount = 8
    let root: URL
    let remote: URL
    let server: WebDAVServer
    let environment: [String: String]
    private(set) var versions: [String: [Data]] = [:]
    private var replacements = 0

    var cache: URL { root.appendingPathComponent("cache/bibread/lab") }
    var manifest: URL { cache.appendingPathComponent(".bibread-cache.sqlite") }
    var libraryCopy: URL { root.appendingPathComponent("data/bibread/remotes/lab/library.bib") }
    let libraryText: String

    init(random: inout SeededGenerator) throws {
        root = try Fixtures.temporaryDirectory()
        remote = root.appendingPathComponent("remote")
        try FileManager.default.createDirectory(at: remote.appendingPathComponent("papers"), withIntermediateDirectories: true)
        libraryText = (0..<Self.fileCount).map { index in
            "@article{big\(index),\n  author = {Tester, Ann},\n  title = {Large file \(index)},\n  journal = {Crash Tests},\n"
                + "  year = {2024},\n  file = {:papers/big-\(index).pdf:PDF}\n}\n"
        }.joined(separator: "\n")
        try libraryText.write(to: remote.appendingPathComponent("library.bib"), atomically: true, encoding: .utf8)
        server = try WebDAVServer.start(root: remote)
        environment = try LabMachine.prepare(root: root, remoteURL: server.baseURL)
        for index in 0..<Self.fileCount { try replace(index, random: &random) }
    }

    func remove() {
        server.stop()
        try? FileManager.default.removeItem(at: root)
    }

    static func path(_ index: Int) -> String { "papers/big-\(index).pdf" }

    /// Puts a new version of file `index` on the remote (written aside, then renamed, so the
    /// server never serves half of it). Every version has its own size, and so its own ETag.
    func replace(_ index: Int, random: inout SeededGenerator) throws {
        replacements += 1
        let size = 1_500_000 + index * 600_000 + replacements * 1_001
        var bytes = [UInt8](repeating: 0, count: size)
        bytes.withUnsafeMutableBytes { buffer in
            for offset in stride(from: 0, to: size - 7, by: 8) { buffer.storeBytes(of: random.next(), toByteOffset: offset, as: UInt64.self) }
        }
        let header = Array("%PDF-1.4\n% big-\(index) version \(replacements)\n".utf8)
        bytes.replaceSubrange(0..<header.count, with: header)
        let data = Data(bytes)
        let aside = root.appendingPathComponent("upload-\(index)")
        try data.write(to: aside)
        guard rename(aside.path, remote.appendingPathComponent(Self.path(index)).path) == 0 else {
            throw CrashCheckFailure("cannot put \(Self.path(index)) on the remote: \(String(cString: strerror(errno)))")
        }
        versions[Self.path(index), default: []].append(data)
    }

    /// After a kill: the .bib copy is whole, every file in place is some whole version, every
    /// `.part` a prefix of one, the manifest intact, `cache status` lists only files in place.
    func checkCache(place: String) throws -> (parts: Int, staleRecords: Int) {
        if let copy = FileManager.default.contents(atPath: libraryCopy.path) {
            #expect(copy == Data(libraryText.utf8), "\(place): the synced library.bib is not the remote's (\(copy.count) bytes)")
        }
        var parts = 0
        for index in 0..<Self.fileCount {
            let path = Self.path(index)
            let known = versions[path] ?? []
            if let data = FileManager.default.contents(atPath: cache.appendingPathComponent(path).path) {
                #expect(known.contains(data), "\(place): \(path) in the cache (\(data.count) bytes) is no version the remote had")
            }
            if let part = FileManager.default.contents(atPath: cache.appendingPathComponent(path + ".part").path) {
                parts += 1
                #expect(known.contains { $0.count >= part.count && $0.prefix(part.count) == part },
                        "\(place): \(path).part (\(part.count) bytes) is not the start of any version of it")
            }
        }
        if FileManager.default.fileExists(atPath: manifest.path) { try SQLite.expectIntact(manifest, place) }
        let status = try json(try ProcessRunner.bibread(["cache", "status", "lab", "--json"], environment: environment), "cache status")
        let files = ((status as? [[String: Any]])?.first?["files"] as? [[String: Any]]) ?? []
        var staleRecords = 0
        for file in files {
            let path = file["path"] as? String ?? "?"
            let bytes = file["bytes"] as? Int ?? -1
            let onDisk = (try? FileManager.default.attributesOfItem(atPath: cache.appendingPathComponent(path).path)[.size] as? Int) ?? nil
            #expect(!path.hasSuffix(".part") && onDisk != nil, "\(place): cache status lists \(path), which is not a finished file in the cache")
            #expect((versions[path] ?? []).contains { $0.count == bytes }, "\(place): cache status gives \(path) \(bytes) bytes, no version's size")
            // A kill between the renames and the one transaction that records them leaves the
            // previous versions' records: the next sync sees the sizes differ and fetches again.
            if onDisk != bytes { staleRecords += 1 }
        }
        return (parts, staleRecords)
    }

    /// After a sync that was not killed: every file is the remote's, no `.part` is left, no
    /// download is pending, and `cache status` lists each file with its size.
    func expectComplete() throws {
        for index in 0..<Self.fileCount {
            let path = Self.path(index)
            let data = FileManager.default.contents(atPath: cache.appendingPathComponent(path).path)
            #expect(data == versions[path]?.last, "\(path) in the cache is not the remote's current version (\(data?.count ?? -1) bytes)")
        }
        let leftovers = (FileManager.default.enumerator(atPath: cache.path)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".part") }
        #expect(leftovers.isEmpty, ".part files left after a complete sync: \(leftovers)")
        try SQLite.expectIntact(manifest, "after the complete sync")
        #expect(try SQLite.rows(manifest, "SELECT path FROM partial").isEmpty, "downloads still noted as partial")
        let status = try json(try ProcessRunner.bibread(["cache", "status", "lab", "--json"], environment: environment), "cache status")
        let files = ((status as? [[String: Any]])?.first?["files"] as? [[String: Any]]) ?? []
        let listed = files.map { "\($0["path"] ?? "?") \($0["bytes"] ?? "?")" }.sorted()
        let expected = (0..<Self.fileCount).map { "\(Self.path($0)) \(versions[Self.path($0)]?.last?.count ?? -1)" }.sorted()
        #expect(listed == expected, "cache status after the complete sync")
    }
}
