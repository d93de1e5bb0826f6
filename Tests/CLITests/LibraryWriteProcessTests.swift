import BibreadTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Writing a library file with real processes (issue 28, "Atomic and checked" and "Someone
/// else wrote the file meanwhile"): `bibread-dev write-library` edits a file through
/// `LibraryFileWriter` in rounds (see WriteLibraryCommand, whose file format `content` restates)
/// and is killed with SIGKILL, run twice at once, or run on a read-only disk; `bibread undo` puts
/// versions back.
@Suite("library writes: killed, two at once, read-only, undo")
struct LibraryWriteProcessTests {
    /// The file `bibread-dev write-library --entries entries` writes in round `r`.
    static func content(round r: Int, entries: Int) -> [UInt8] {
        var text = "@comment{write-library round \(r)}\n"
        for index in 0..<(entries + (r % 4) * entries / 2) {
            text += "@misc{r\(r)-\(index),\n  title = {Round \(r), entry \(index)},\n  note = {\(String(repeating: "x", count: 40 + index % 80))}\n}\n"
        }
        return Array(text.utf8)
    }

    /// The round counter on a file's first line (0: none).
    static func round(of bytes: [UInt8]) -> Int {
        let prefix = Array("@comment{write-library round ".utf8)
        guard bytes.starts(with: prefix) else { return 0 }
        return Int(String(decoding: bytes.dropFirst(prefix.count).prefix { $0 != UInt8(ascii: "}") }, as: UTF8.self)) ?? 0
    }

    /// A home with its XDG folders and a library file `papers/library.bib` (mode 0640) holding
    /// round 0's content.
    final class Sandbox: IsolatedHome {
        let library: URL
        let entries: Int

        init(entries: Int) throws {
            self.entries = entries
            library = try Fixtures.temporaryDirectory().appendingPathComponent("papers/library.bib")
            try super.init()
            try FileManager.default.createDirectory(at: library.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(LibraryWriteProcessTests.content(round: 0, entries: entries)).write(to: library)
            chmod(library.path, 0o640)
        }

        deinit { try? FileManager.default.removeItem(at: library.deletingLastPathComponent().deletingLastPathComponent()) }

        func bytes() throws -> [UInt8] { [UInt8](try Data(contentsOf: library)) }

        func mode() -> mode_t {
            var status = stat()
            stat(library.path, &status)
            return status.st_mode & 0o7777
        }

        /// Files beside the library other than itself (a temporary file a kill left).
        func strays() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: library.deletingLastPathComponent().path).filter { $0 != "library.bib" }
        }

        func writeLibrary(_ arguments: [String]) throws -> ProcessResult {
            try ProcessRunner.development(["write-library", library.path, "--entries", String(entries)] + arguments, environment: environment)
        }

        /// The edits the history keeps of the library (its index.json), oldest first.
        func history() throws -> [[String: Any]] {
            let folder = root.appendingPathComponent("state/bibread/history")
            guard let key = try? FileManager.default.contentsOfDirectory(atPath: folder.path).first,
                  let data = try? Data(contentsOf: folder.appendingPathComponent(key).appendingPathComponent("index.json")) else { return [] }
            let index = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return try #require(index["entries"] as? [[String: Any]])
        }

        func historyCount() throws -> Int { try history().count }

        /// Whether the history's last edit never landed (a writer killed after keeping the
        /// version before and before its rename): the file is that edit's `before`.
        func historyEndsUnsettled() throws -> Bool {
            guard let last = try history().last else { return false }
            let sum = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["sha256sum", library.path])
            let hash = String(sum.standardOutput.prefix { $0 != " " })
            return last["after"] as? String != hash && last["before"] as? String == hash
        }
    }

    @Test("Killed 30 times while writing, the library is always a whole round's file with its mode; the next write clears what a kill left and undo goes back one round")
    func killedWhileWritingTheLibrary() throws {
        var random = SeededGenerator.forTest("killedWhileWritingTheLibrary")
        let sandbox = try Sandbox(entries: 1500)
        var lastRound = 0
        var leftTemporary = 0
        let started = Date()
        var unsettled = 0
        var seenStrays: Set<String> = []
        let folder = sandbox.library.deletingLastPathComponent()
        for iteration in 0..<30 {
            // A third of the kills are timed from the start (the first load and lock), a third
            // from the first round written (rounds under way), a third from a temporary file
            // appearing beside the library (mid-write: writing, checking, keeping the version
            // before, renaming).
            let moment: KillMoment
            let place: String
            switch iteration % 3 {
            case 0:
                let delay = Int.random(in: 20...400, using: &random.generator)
                moment = .afterStart(milliseconds: delay)
                place = "iteration \(iteration), killed \(delay) ms after start (seed \(random.seed))"
            case 1:
                let delay = Int.random(in: 0...300, using: &random.generator)
                moment = .afterFirstLine(milliseconds: delay)
                place = "iteration \(iteration), killed \(delay) ms after its first round (seed \(random.seed))"
            default:
                let delay = Int.random(in: 0...60_000, using: &random.generator)
                moment = .afterFileAppears(under: folder, suffix: ".tmp", microseconds: delay)
                place = "iteration \(iteration), killed \(delay) µs after a temporary file appeared (seed \(random.seed))"
            }
            let run = try KilledRun(ProcessRunner.developmentExecutable, ["write-library", sandbox.library.path, "--entries", "1500"],
                                    environment: sandbox.environment, kill: moment, scratch: sandbox.root)
            try #require(run.killed, "\(place): write-library ended by itself (status \(run.status)): \(run.standardError)")
            let bytes = try sandbox.bytes()
            let round = Self.round(of: bytes)
            #expect(bytes == Self.content(round: round, entries: 1500),
                    "\(place): the library is not round \(round)'s file (\(bytes.count) bytes): a part was left")
            #expect(sandbox.mode() == 0o640, "\(place): mode \(String(sandbox.mode(), radix: 8))")
            #expect(round >= lastRound, "\(place): the round went back from \(lastRound) to \(round)")
            let strays = Set(try sandbox.strays())
            if !strays.subtracting(seenStrays).isEmpty { leftTemporary += 1 }
            seenStrays = strays
            if try sandbox.historyEndsUnsettled() { unsettled += 1 }
            lastRound = round
        }
        #expect(lastRound >= 5, "only \(lastRound) rounds were written in 30 runs (seed \(random.seed))")

        // Whatever the kills cut short in the history, undo puts back the round before.
        let undo = try sandbox.bibread(["undo", sandbox.library.path])
        #expect(undo.status == 0, "\(undo.standardError)")
        #expect(try sandbox.bytes() == Self.content(round: lastRound - 1, entries: 1500))
        // Left alone, a round completes, and what kills left beside the file is gone.
        let finish = try sandbox.writeLibrary(["--rounds", "1"])
        #expect(finish.status == 0, "\(finish.standardError)")
        #expect(try sandbox.bytes() == Self.content(round: lastRound, entries: 1500))
        #expect(sandbox.mode() == 0o640)
        let strays = try sandbox.strays()
        #expect(strays.isEmpty, "left beside the library: \(strays)")
        #expect(try sandbox.historyCount() <= 10)
        #expect(leftTemporary > 0, "no kill landed mid-write (seed \(random.seed))")
        print("killedWhileWritingTheLibrary: 30 kills, \(lastRound) rounds written, \(leftTemporary) kills left a temporary file, "
              + "\(unsettled) between keeping the version before and the rename, "
              + "\(String(format: "%.1f", Date().timeIntervalSince(started))) s")
    }

    @Test("Two writers at once take turns: 2 × 12 rounds make round 24, each round written once, none lost")
    func twoWritersTakeTurns() throws {
        let sandbox = try Sandbox(entries: 200)
        let results = LockedResults()
        let arguments = ["write-library", sandbox.library.path, "--entries", "200", "--rounds", "12", "--hold", "50", "--pause", "20"]
        let environment = sandbox.environment
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            results.set(index, Result { try ProcessRunner.development(arguments, environment: environment) })
        }
        var rounds: [Int] = []
        var reported = 0
        for index in 0..<2 {
            let result = try results.get(index).get()
            #expect(result.status == 0, "writer \(index): \(result.standardError)")
            for line in result.standardOutput.split(separator: "\n") {
                let words = line.split(separator: " ")
                if words.count >= 3, words[0] == "round", let round = Int(words[1]) { rounds.append(round) }
                if line.contains("someone else wrote the file") { reported += 1 }
            }
        }
        #expect(rounds.sorted() == Array(1...24), "rounds written: \(rounds.sorted())")
        #expect(Self.round(of: try sandbox.bytes()) == 24)
        #expect(try sandbox.bytes() == Self.content(round: 24, entries: 200))
        print("twoWritersTakeTurns: \(reported) of 24 writes found the other writer's round since they loaded")
    }

    @Test("A second writer waits for the first, says for whom, and applies its edit to what the first wrote")
    func secondWriterWaits() throws {
        let sandbox = try Sandbox(entries: 200)
        let first = Process()
        first.executableURL = ProcessRunner.developmentExecutable
        first.arguments = ["write-library", sandbox.library.path, "--entries", "200", "--rounds", "1", "--hold", "1500"]
        first.environment = ProcessInfo.processInfo.environment.merging(sandbox.environment) { $1 }
        let output = Pipe()
        first.standardOutput = output
        first.standardError = FileHandle.nullDevice
        try first.run()
        // The first writer holds the lock once its lock file names it.
        let locks = sandbox.root.appendingPathComponent("state/bibread/locks")
        let deadline = Date().addingTimeInterval(20)
        func holds() -> Bool {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: locks.path)) ?? []
            return names.contains { (try? String(contentsOf: locks.appendingPathComponent($0), encoding: .utf8)) == "\(first.processIdentifier)\n" }
        }
        while !holds() && Date() < deadline { usleep(10_000) }
        try #require(holds(), "the first writer never took the lock")
        let second = try sandbox.writeLibrary(["--rounds", "1"])
        first.waitUntilExit()
        let firstOutput = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(first.terminationStatus == 0)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(second.standardError.contains("waiting for process \(first.processIdentifier)"), "\(second.standardError)")
        #expect(firstOutput == "round 1 written\n")
        #expect(second.standardOutput == "round 2 written, someone else wrote the file since it was loaded\n")
        #expect(try sandbox.bytes() == Self.content(round: 2, entries: 200))
    }

    @Test("A library in a read-only folder (a read-only mount: root too is refused) gives a clear error; nothing is written, nothing kept",
          .enabled(if: SmallDisk.isAvailable, "needs a mount namespace: \(SmallDisk.unavailableReason ?? "")"))
    func readOnlyFolderWritesNothing() throws {
        let sandbox = try Sandbox(entries: 50)
        let disk = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: disk) }
        let library = disk.appendingPathComponent("library.bib")
        let results = try SmallDisk.run([
            .run(URL(fileURLWithPath: "/bin/cp"), ["-p", sandbox.library.path, library.path]),
            .run(URL(fileURLWithPath: "/bin/mount"), ["-o", "remount,ro", disk.path]),
            .run(ProcessRunner.developmentExecutable, ["write-library", library.path, "--entries", "50", "--rounds", "1"]),
            .run(URL(fileURLWithPath: "/bin/ls"), ["-A", disk.path]),
            .run(URL(fileURLWithPath: "/bin/cat"), [library.path]),
        ], on: disk, bytes: 1 << 20, environment: sandbox.environment)
        try #require(results.count == 5)
        #expect(results[1].status == 0, "remount read-only: \(results[1].standardError)")
        #expect(results[2].status != 0)
        #expect(results[2].standardError.contains("cannot write \(library.path): its folder \(disk.path) does not let bibread make the new version beside it (Read-only file system); nothing was written"),
                "\(results[2].standardError)")
        #expect(results[3].standardOutput == "library.bib\n", "beside the library: \(results[3].standardOutput)")
        #expect(Array(results[4].standardOutput.utf8) == Self.content(round: 0, entries: 50))
        let history = sandbox.root.appendingPathComponent("state/bibread/history")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: history.path)) ?? []).isEmpty, "a version was kept of an edit not made")
    }

    @Test("bibread undo puts back edit after edit, says what it did, then that there is nothing to undo")
    func undoCommand() throws {
        let sandbox = try Sandbox(entries: 20)
        #expect(try sandbox.writeLibrary(["--rounds", "2"]).status == 0)
        let first = try sandbox.bibread(["undo", sandbox.library.path])
        #expect(first.status == 0, "\(first.standardError)")
        let size = Self.content(round: 1, entries: 20).count
        #expect(first.standardOutput.hasPrefix("\(sandbox.library.path): undid 'write-library round 2' of "), "\(first.standardOutput)")
        #expect(first.standardOutput.hasSuffix("; the file is as it was before it (\(size) bytes); 1 earlier edit can be undone\n"), "\(first.standardOutput)")
        #expect(try sandbox.bytes() == Self.content(round: 1, entries: 20))
        let second = try sandbox.bibread(["undo", sandbox.library.path])
        #expect(second.status == 0 && second.standardOutput.hasSuffix("no earlier edit is kept\n"), "\(second.standardOutput)")
        #expect(try sandbox.bytes() == Self.content(round: 0, entries: 20))
        let third = try sandbox.bibread(["undo", sandbox.library.path])
        #expect(third.status == 1)
        #expect(third.standardError == "bibread: nothing to undo in \(sandbox.library.path): bibread keeps no edit of it\n")
        #expect(try sandbox.bytes() == Self.content(round: 0, entries: 20))
        #expect(sandbox.mode() == 0o640)

        let missing = try sandbox.bibread(["undo", sandbox.root.appendingPathComponent("gone.bib").path])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("cannot read \(sandbox.root.appendingPathComponent("gone.bib").path): No such file or directory"),
                "\(missing.standardError)")
    }

    @Test("bibread undo after another program changed the file refuses, names the change, and leaves the file as it is")
    func undoAfterExternalEditRefused() throws {
        let sandbox = try Sandbox(entries: 20)
        #expect(try sandbox.writeLibrary(["--rounds", "1"]).status == 0)
        // Another program appends an entry, as an editor or BibDesk would save one.
        let shell = try ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "printf '@misc{added, title = {Added}}\\n' >> \"$1\"", "sh", sandbox.library.path])
        #expect(shell.status == 0)
        let changed = try sandbox.bytes()
        let undo = try sandbox.bibread(["undo", sandbox.library.path])
        #expect(undo.status == 1)
        let edited = Self.content(round: 1, entries: 20).count
        #expect(undo.standardError.hasPrefix("bibread: \(sandbox.library.path) was changed since bibread's last edit of it ('write-library round 1', "),
                "\(undo.standardError)")
        #expect(undo.standardError.contains("that edit left \(edited) bytes, the file now has \(changed.count) bytes, modified at "), "\(undo.standardError)")
        #expect(undo.standardError.hasSuffix("it was not undone, so that the other change is kept\n"), "\(undo.standardError)")
        #expect(try sandbox.bytes() == changed)
    }

    @Test("bibread undo takes a synced remote's name, as the other commands do")
    func undoByRemoteName() throws {
        let sandbox = try SyncSandbox()
        let sync = try sandbox.bibread(["sync", sandbox.remote.path, "--name", "lab"])
        try #require(sync.status == 0, "\(sync.standardError)")
        let library = sandbox.library("lab").appendingPathComponent("library.bib")
        let synced = try Data(contentsOf: library)
        let write = try ProcessRunner.development(["write-library", library.path, "--entries", "5", "--rounds", "1"], environment: sandbox.environment)
        #expect(write.status == 0, "\(write.standardError)")
        let undo = try sandbox.bibread(["undo", "lab"])
        #expect(undo.status == 0, "\(undo.standardError)")
        #expect(undo.standardOutput.contains("undid 'write-library round 1'"), "\(undo.standardOutput)")
        #expect(try Data(contentsOf: library) == synced)
    }
}

/// The results of two writers run at once.
private final class LockedResults: @unchecked Sendable {
    private var results: [Result<ProcessResult, Error>?] = [nil, nil]
    private let lock = NSLock()

    func set(_ index: Int, _ result: Result<ProcessResult, Error>) {
        lock.lock()
        results[index] = result
        lock.unlock()
    }

    func get(_ index: Int) throws -> Result<ProcessResult, Error> {
        lock.lock()
        defer { lock.unlock() }
        return try #require(results[index])
    }
}
