import BibreadTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Crash safety of the sync when two syncs of one remote meet, and when a server gives no
/// lengths and closes early (issue 26, items 1 and 2): the real binary against real lighttpd
/// and the fault server, interrupted with real SIGKILL and SIGINT.
extension CrashSafetyTests {
    /// Rounds of ``twoSyncsOfOneRemoteOneInterrupted()``: `BIBREAD_STRESS_ROUNDS`, else 5 (without
    /// the lock, a race showed in about 1 round of 3 to 10: run it by hand with more rounds).
    static var syncRaceRounds: Int { Int(ProcessInfo.processInfo.environment["BIBREAD_STRESS_ROUNDS"] ?? "") ?? 5 }

    @Test("Two syncs of one remote at once, one of them now and then killed or interrupted: no PDF the remote never had is in the cache, the second waits and says for whom, the next sync leaves every file whole")
    func twoSyncsOfOneRemoteOneInterrupted() throws {
        var random = SeededGenerator.forTest("twoSyncsOfOneRemoteOneInterrupted")
        let setup = try LargeRemote()
        defer { setup.remove() }
        let rounds = Self.syncRaceRounds
        var waitsSeen = 0
        var corruptRounds = 0
        let started = Date()
        for round in 0..<rounds {
            try setup.publishVersion()
            // As a cron job and a sync by hand (or F5 in the reader) meet: the second starts
            // while the first lists, plans or downloads: 0 to 0.6 s after it, or (every other
            // round) up to 50 ms after its download of the 27 MB file began.
            let first = try BackgroundBibread(["sync", "lab", "--all-pdfs"], environment: setup.environment, scratch: setup.root)
            if round % 2 == 1 {
                try setup.waitForPart(while: first)
                usleep(UInt32.random(in: 0...50_000, using: &random.generator))
            } else {
                usleep(UInt32.random(in: 0...600_000, using: &random.generator))
            }
            let second = try BackgroundBibread(["sync", "lab", "--all-pdfs"], environment: setup.environment, scratch: setup.root)
            // In two rounds of three, one of them is stopped 0.05 to 0.6 s later: kill -9, or Ctrl-C.
            let interruption = [nil, SIGKILL, SIGINT][Int.random(in: 0..<3, using: &random.generator)]
            let stopFirst = Bool.random(using: &random.generator)
            if let interruption {
                usleep(UInt32.random(in: 50_000...600_000, using: &random.generator))
                (stopFirst ? first : second).send(interruption)
            }
            let firstEnded = try first.wait(seconds: 180)
            let secondEnded = try second.wait(seconds: 180)
            let place = "round \(round)" + (interruption.map { " (the \(stopFirst ? "first" : "second") sync got \($0 == SIGKILL ? "SIGKILL" : "SIGINT"))" } ?? "")
                + " (seed \(random.seed))"
            for (ended, stopped, name) in [(firstEnded, interruption != nil && stopFirst, "first"), (secondEnded, interruption != nil && !stopFirst, "second")] {
                // A sync not stopped ends well; one stopped by Ctrl-C ends cleanly, or well if it was done.
                if !stopped || interruption == SIGINT {
                    #expect(!ended.signalled && (ended.status == 0 || (stopped && ended.status == 130)),
                            "\(place): the \(name) sync ended with \(ended.status)\(ended.signalled ? " (a signal)" : ""): \(ended.standardError)")
                }
            }
            if second.waited(for: first.pid, in: secondEnded.standardError) { waitsSeen += 1 }

            // Whatever the cache holds in place is a version the remote had: no file of the
            // right size with a stretch of zeros inside.
            let problems = setup.problemsWithCachedFiles()
            for problem in problems { Issue.record("\(place): after both ended, \(problem)") }
            // The next sync leaves the current versions, whole, and recorded with their sizes.
            let next = try ProcessRunner.bibread(["sync", "lab", "--all-pdfs"], environment: setup.environment)
            #expect(next.status == 0, "\(place): the sync after: \(next.standardError)")
            let left = setup.problemsWithCachedFiles(mustBeCurrent: true)
            for problem in left {
                Issue.record("\(place): after the next sync (\(next.standardError.split(separator: "\n").last ?? "")), \(problem)")
            }
            if !problems.isEmpty || !left.isEmpty { corruptRounds += 1 }
        }
        print("twoSyncsOfOneRemoteOneInterrupted: \(rounds) rounds, \(waitsSeen) times the second sync waited for the first, "
              + "\(corruptRounds) rounds left a wrong file, \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        // A second sync started while the first runs says whom it waits for.
        #expect(waitsSeen > 0, "in \(rounds) rounds no second sync said it waited for the first (seed \(random.seed))")
    }

    @Test("With --no-wait a second sync exits at once with status 75, saying who holds the lock; a lock whose holder was killed never blocks")
    func aSecondSyncWaitsOrFailsAtOnce() throws {
        let setup = try LargeRemote()
        defer { setup.remove() }
        try setup.publishVersion()
        let first = try BackgroundBibread(["sync", "lab", "--all-pdfs"], environment: setup.environment, scratch: setup.root)
        // Stopped mid-download (SIGSTOP), it holds the remote for as long as the test needs.
        try setup.waitForPart(while: first)
        first.send(SIGSTOP)
        try #require(first.process.isRunning, "the first sync ended before it could be stopped")
        let refused = try ProcessRunner.bibread(["sync", "lab", "--all-pdfs", "--no-wait"], environment: setup.environment)
        #expect(refused.status == 75, "\(refused.standardError)")
        #expect(refused.standardError.contains("another sync of 'lab' is running (pid \(first.pid): bibread sync lab --all-pdfs); not waiting for it"),
                "\(refused.standardError)")
        // Killed, the holder lets go at once: the next sync takes over its .part.
        first.send(SIGKILL)
        _ = try first.wait(seconds: 30)
        let next = try ProcessRunner.bibread(["sync", "lab", "--all-pdfs", "--no-wait"], environment: setup.environment)
        #expect(next.status == 0, "\(next.standardError)")
        #expect(setup.problemsWithCachedFiles(mustBeCurrent: true).isEmpty, "\(setup.problemsWithCachedFiles(mustBeCurrent: true))")
    }

    @Test("cache purge waits for a sync of the remote to end instead of removing files under it, and says for whom it waits")
    func aCachePurgeWaitsForTheSync() throws {
        let setup = try LargeRemote()
        defer { setup.remove() }
        try setup.publishVersion()
        let whole = try ProcessRunner.bibread(["sync", "lab", "--all-pdfs"], environment: setup.environment)
        try #require(whole.status == 0, "\(whole.standardError)")
        try setup.publishVersion()
        let sync = try BackgroundBibread(["sync", "lab", "--all-pdfs"], environment: setup.environment, scratch: setup.root)
        try setup.waitForPart(while: sync)
        sync.send(SIGSTOP)
        try #require(sync.process.isRunning, "the sync ended before it could be stopped")
        let purge = try BackgroundBibread(["cache", "purge", "lab", "--all"], environment: setup.environment, scratch: setup.root)
        usleep(1_500_000)
        // Held up: the cache is as the sync left it.
        #expect(purge.process.isRunning, "cache purge did not wait for the sync")
        let cached = (0..<LargeRemote.fileCount).filter {
            FileManager.default.fileExists(atPath: setup.cache.appendingPathComponent(LargeRemote.path($0)).path)
        }
        #expect(!cached.isEmpty, "the purge removed the cache while the sync held it")
        sync.send(SIGCONT)
        let synced = try sync.wait(seconds: 120)
        #expect(synced.status == 0, "\(synced.standardError)")
        let purged = try purge.wait(seconds: 30)
        #expect(purged.status == 0, "\(purged.standardError)")
        #expect(purged.standardError.contains("A sync of 'lab' is running (pid \(sync.pid): bibread sync lab --all-pdfs); waiting for it to end before purging"),
                "\(purged.standardError)")
        let left = (0..<LargeRemote.fileCount).filter {
            FileManager.default.fileExists(atPath: setup.cache.appendingPathComponent(LargeRemote.path($0)).path)
        }
        #expect(left.isEmpty, "after the purge the cache still holds \(left.map(LargeRemote.path))")
    }

    @Test("A server that gives no lengths and closes early: a cut PDF is never recorded, a .bib cut at an entry boundary never replaces the library unasked (--accept does, keeping the copy it replaces), a listing with the size again brings the whole file")
    func shortDownloadsFromAServerWithoutLengths() throws {
        let setup = try LengthlessRemote()
        defer { setup.remove() }
        // The library in use: 61 references.
        let first = try setup.bibread(["sync", "lab"])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardError.contains("library.bib: updated (61 references)"), "\(first.standardError)")

        // The server now gives no lengths, and closes after 1 MB of the PDF and after 15 entries of the .bib.
        try setup.touchLibrary()
        try setup.server.setFault(.listingWithoutLengths, for: "/")
        try setup.server.setFault(.listingWithoutLengths, for: "/papers/")
        try setup.server.setFault(.closeDelimited(afterBytes: setup.libraryCut), for: "/library.bib")
        try setup.server.setFault(.closeDelimited(afterBytes: 1_048_576), for: "/papers/tcolorbox.pdf")
        let cut = try setup.bibread(["sync", "lab", "--all-pdfs"])
        #expect(cut.status == 1, "\(cut.standardError)")
        #expect(cut.standardError.contains("library.bib: NOT replaced: it has 15 references where the copy in use has 61: 46 would be dropped"),
                "\(cut.standardError)")
        #expect(cut.standardError.contains("the server gave no length for it, and it is not a whole PDF"), "\(cut.standardError)")
        #expect(try setup.references() == 61, "the library in use lost references")
        #expect(setup.rejectedReferences() == 15)
        #expect(setup.cachedPDF() == nil, "a piece of the PDF (\(setup.cachedPDF()?.count ?? 0) bytes) is in the cache")
        let recorded = try setup.recordedFiles()
        #expect(recorded.isEmpty, "the cache records \(recorded)")

        // --accept takes the smaller .bib; the copy it replaced is kept.
        let accepted = try setup.bibread(["sync", "lab", "--accept"])
        #expect(accepted.status == 0, "\(accepted.standardError)")
        #expect(accepted.standardError.contains("library.bib: put in place as --accept asks, though it has 15 references where the copy in use has 61"),
                "\(accepted.standardError)")
        #expect(try setup.references() == 15)
        #expect(setup.previousCopies().map { setup.referencesIn($0) } == [61])

        // Cut exactly after a whole revision of the PDF (an incremental update follows): it
        // ends in %%EOF and opens, so it is taken, recorded with its own size.
        try setup.server.clearFaults()
        try setup.server.setFault(.listingWithoutLengths, for: "/")
        try setup.server.setFault(.listingWithoutLengths, for: "/papers/")
        try setup.server.setFault(.closeDelimited(afterBytes: setup.firstRevision), for: "/papers/tcolorbox.pdf")
        let revision = try setup.bibread(["sync", "lab", "--all-pdfs"])
        #expect(revision.status == 0, "\(revision.standardError)")
        #expect(setup.cachedPDF()?.count == setup.firstRevision)

        // Healthy again: the listing's size differs from the one recorded, so the file is
        // fetched whole although its ETag is the same; the .bib comes whole.
        try setup.server.clearFaults()
        let healthy = try setup.bibread(["sync", "lab", "--all-pdfs"])
        #expect(healthy.status == 0, "\(healthy.standardError)")
        #expect(!healthy.standardError.contains("0 downloaded"), "\(healthy.standardError)")
        #expect(setup.cachedPDF() == setup.pdf, "the cached PDF has \(setup.cachedPDF()?.count ?? 0) bytes, the remote's \(setup.pdf.count)")
        #expect(try setup.recordedFiles() == ["papers/tcolorbox.pdf \(setup.pdf.count)"])
        #expect(try setup.references() == 61)

        // Every replaced copy is kept, the last three only.
        for _ in 0..<2 {
            try setup.touchLibrary()
            #expect(try setup.bibread(["sync", "lab"]).status == 0)
        }
        let kept = setup.previousCopies()
        #expect(kept.count == 3, "\(kept.map(\.lastPathComponent))")
        #expect(kept.map { setup.referencesIn($0) } == [15, 61, 61])
    }
}

// MARK: - A real bibread in the background

/// `bibread` started in the background, to be signalled and waited for.
final class BackgroundBibread {
    let process = Process()
    private let errorFile: URL

    var pid: Int32 { process.processIdentifier }

    init(_ arguments: [String], environment: [String: String], scratch: URL) throws {
        process.executableURL = ProcessRunner.bibreadExecutable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        errorFile = scratch.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let errors = try FileHandle(forWritingTo: errorFile)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? errors.close()
    }

    deinit {
        if process.isRunning { kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(at: errorFile)
    }

    func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits until it ends (SIGKILL after `seconds`): its exit status (or signal), and its stderr.
    func wait(seconds: Double) throws -> (status: Int32, signalled: Bool, standardError: String) {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
            throw CrashCheckFailure("bibread \(process.arguments ?? []) did not end within \(Int(seconds)) s")
        }
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal, (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "")
    }

    /// Whether this sync said it waited for the process `holder` (in `standardError`, its own).
    func waited(for holder: Int32, in standardError: String) -> Bool {
        standardError.contains("Another sync of 'lab' is running (pid \(holder)")
    }
}

// MARK: - The remotes

/// The machine a crash test syncs to: XDG folders under a test's root, with the remote `lab`
/// configured.
enum LabMachine {
    /// Writes config.toml naming `remoteURL` as `lab` under `root`; returns the environment that
    /// points bibread's folders (and HOME) there.
    static func prepare(root: URL, remoteURL: URL) throws -> [String: String] {
        let config = root.appendingPathComponent("config/bibread")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "[[remote]]\nname = \"lab\"\nurl = \"\(remoteURL.absoluteString)\"\n"
            .write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        return Fixtures.isolatedEnvironment(under: root).merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
    }
}

/// A WebDAV remote (lighttpd) configured as `lab` with eight PDFs: one of 27 MB and seven of
/// about 6 MB, more than a sync downloads at once (4), so that some wait for a free slot; each
/// version of each has its own size and content.
final class LargeRemote {
    static let fileCount = 8
    let root: URL
    let remote: URL
    let server: WebDAVServer
    let environment: [String: String]
    private let body: Data
    private(set) var version = 0

    var cache: URL { root.appendingPathComponent("cache/bibread/lab") }
    static func path(_ index: Int) -> String { "papers/big-\(index).pdf" }
    static func size(_ index: Int) -> Int { index == 0 ? 27 * 1024 * 1024 : 6 * 1024 * 1024 + index * 100_003 }

    init() throws {
        root = try Fixtures.temporaryDirectory()
        remote = root.appendingPathComponent("remote")
        try FileManager.default.createDirectory(at: remote.appendingPathComponent("papers"), withIntermediateDirectories: true)
        try (0..<Self.fileCount).map { "@article{big\($0),\n  title = {Large file \($0)},\n  file = {:\(Self.path($0)):PDF}\n}\n" }.joined()
            .write(to: remote.appendingPathComponent("library.bib"), atomically: true, encoding: .utf8)
        var generator = SeededGenerator(seed: 27)
        var bytes = [UInt8](repeating: 0, count: Self.size(0))
        bytes.withUnsafeMutableBytes { buffer in
            for offset in stride(from: 0, to: buffer.count - 7, by: 8) { buffer.storeBytes(of: generator.next(), toByteOffset: offset, as: UInt64.self) }
        }
        body = Data(bytes)
        server = try WebDAVServer.start(root: remote)
        environment = try LabMachine.prepare(root: root, remoteURL: server.baseURL)
    }

    func remove() {
        server.stop()
        try? FileManager.default.removeItem(at: root)
    }

    /// The bytes of version `number` of file `index`.
    func content(_ index: Int, _ number: Int) -> Data {
        Data("%PDF-1.4\n% big-\(index) version \(number)\n".utf8) + body.prefix(Self.size(index))
            + Data(repeating: UInt8(truncatingIfNeeded: number), count: number * 1001)
    }

    /// Puts the next version of every file on the remote (each written aside, then renamed
    /// into place).
    func publishVersion() throws {
        version += 1
        for index in 0..<Self.fileCount {
            let aside = root.appendingPathComponent("upload")
            try content(index, version).write(to: aside)
            guard rename(aside.path, remote.appendingPathComponent(Self.path(index)).path) == 0 else {
                throw CrashCheckFailure("cannot publish version \(version): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Returns once the cache has a `.part` of the 27 MB file with some bytes in it, or `sync` ended.
    func waitForPart(while sync: BackgroundBibread) throws {
        let part = cache.appendingPathComponent(Self.path(0) + ".part").path
        let deadline = Date().addingTimeInterval(60)
        while sync.process.isRunning && Date() < deadline {
            var status = stat()
            if stat(part, &status) == 0 && status.st_size > 0 { return }
            usleep(1000)
        }
        guard Date() < deadline else { throw CrashCheckFailure("no .part appeared in 60 s") }
    }

    /// What is wrong with the PDFs in the cache: one that is no version the remote had (or,
    /// with `mustBeCurrent`, not the current one, or missing, or recorded with another size).
    func problemsWithCachedFiles(mustBeCurrent: Bool = false) -> [String] {
        var recorded: [String: Int] = [:]
        if mustBeCurrent {
            let status = try? ProcessRunner.bibread(["cache", "status", "lab", "--json"], environment: environment)
            let report = status.flatMap { try? JSONSerialization.jsonObject(with: Data($0.standardOutput.utf8)) as? [[String: Any]] }
            for file in (report?.first?["files"] as? [[String: Any]]) ?? [] {
                if let path = file["path"] as? String, let bytes = file["bytes"] as? Int { recorded[path] = bytes }
            }
        }
        var problems: [String] = []
        for index in 0..<Self.fileCount {
            let path = Self.path(index)
            guard let data = FileManager.default.contents(atPath: cache.appendingPathComponent(path).path) else {
                if mustBeCurrent { problems.append("\(path) is not in the cache") }
                continue
            }
            let current = content(index, version)
            if data == current {
                if mustBeCurrent && recorded[path] != current.count {
                    problems.append("the cache records \(recorded[path].map(String.init) ?? "no size") bytes for \(path), of \(current.count)")
                }
                continue
            }
            if !mustBeCurrent && version > 1 && data == content(index, version - 1) { continue }
            let zeros = Self.longestZeroRun(data)
            problems.append("\(path) in the cache (\(data.count) bytes; the remote's has \(current.count)) is no version the remote had"
                            + (zeros > 4096 ? ": it holds a run of \(zeros) zero bytes" : ""))
        }
        return problems
    }

    /// The longest run of zero bytes (a hole left by two writers).
    private static func longestZeroRun(_ data: Data) -> Int {
        data.withUnsafeBytes { buffer in
            var longest = 0
            var run = 0
            for byte in buffer {
                if byte == 0 {
                    run += 1
                    longest = max(longest, run)
                } else {
                    run = 0
                }
            }
            return longest
        }
    }
}

/// The fault server as a WebDAV remote configured as `lab`: a library of 61 references whose
/// first links a real 7.7 MB PDF (`tcolorbox.pdf` of the corpora) with an incremental update
/// appended, so that the file has two whole revisions.
final class LengthlessRemote {
    let root: URL
    let remote: URL
    let server: FaultServer
    let environment: [String: String]
    /// The PDF on the remote, and the length of its first revision.
    let pdf: Data
    let firstRevision: Int
    /// Where the .bib's 16th entry starts.
    let libraryCut: Int

    var libraryFolder: URL { root.appendingPathComponent("data/bibread/remotes/lab") }
    var cachedFile: URL { root.appendingPathComponent("cache/bibread/lab/papers/tcolorbox.pdf") }

    init() throws {
        root = try Fixtures.temporaryDirectory()
        remote = root.appendingPathComponent("remote")
        try FileManager.default.createDirectory(at: remote.appendingPathComponent("papers"), withIntermediateDirectories: true)
        let entries = (0..<61).map { index in
            "@article{entry\(index),\n  author = {Writer, Ann},\n  title = {Paper \(index)},\n  year = {2024}"
                + (index == 0 ? ",\n  file = {:papers/tcolorbox.pdf:PDF}" : "") + "\n}\n\n"
        }
        libraryCut = entries.prefix(15).reduce(0) { $0 + $1.utf8.count }
        try entries.joined().write(to: remote.appendingPathComponent("library.bib"), atomically: true, encoding: .utf8)
        let original = try Data(contentsOf: Fixtures.corpus("pdfs/tcolorbox.pdf"))
        firstRevision = original.count
        pdf = try Self.withIncrementalUpdate(original)
        try pdf.write(to: remote.appendingPathComponent("papers/tcolorbox.pdf"))
        server = try FaultServer.start(root: remote)
        environment = try LabMachine.prepare(root: root, remoteURL: server.baseURL)
    }

    func remove() {
        server.stop()
        try? FileManager.default.removeItem(at: root)
    }

    func bibread(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.bibread(arguments, environment: environment)
    }

    /// `original` with an incremental update after it: a new Info dictionary, its cross-reference
    /// section and a trailer pointing back to the original's.
    static func withIncrementalUpdate(_ original: Data) throws -> Data {
        let tail = String(decoding: original.suffix(2048), as: UTF8.self)
        guard let size = tail.matches(of: /\/Size (\d+)/).last.flatMap({ Int($0.1) }),
              let root = tail.matches(of: /\/Root (\d+ \d+) R/).last.map({ String($0.1) }),
              let previous = tail.matches(of: /startxref\s+(\d+)/).last.flatMap({ Int($0.1) }) else {
            throw CrashCheckFailure("the PDF's trailer is not the plain kind this test extends")
        }
        let object = "\n\(size) 0 obj\n<< /Producer (bibread test: an incremental update) >>\nendobj\n"
        let crossReference = original.count + object.utf8.count
        let update = object + "xref\n0 1\n0000000000 65535 f \n\(size) 1\n\(String(format: "%010d", original.count + 1)) 00000 n \n"
            + "trailer\n<< /Size \(size + 1) /Root \(root) R /Info \(size) 0 R /Prev \(previous) >>\nstartxref\n\(crossReference)\n%%EOF\n"
        return original + Data(update.utf8)
    }

    /// Gives the remote's .bib a new modification time (and so a new ETag), same content.
    func touchLibrary() throws {
        let path = remote.appendingPathComponent("library.bib").path
        var status = stat()
        stat(path, &status)
        var times = [timespec(tv_sec: status.st_mtim.tv_sec + 10, tv_nsec: 0), timespec(tv_sec: status.st_mtim.tv_sec + 10, tv_nsec: 0)]
        guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw CrashCheckFailure("cannot touch \(path)") }
    }

    /// The references of the library in use, as `bibread list` counts them.
    func references() throws -> Int {
        let list = try bibread(["list", "lab"])
        guard list.status == 0 else { throw CrashCheckFailure("bibread list lab: \(list.standardError)") }
        return list.standardOutput.split(separator: "\n").count
    }

    func referencesIn(_ file: URL) -> Int {
        ((try? String(contentsOf: file, encoding: .utf8)) ?? "").matches(of: /@article\{/).count
    }

    func rejectedReferences() -> Int {
        referencesIn(libraryFolder.appendingPathComponent(".rejected/library.bib"))
    }

    /// The kept copies of replaced .bib files, oldest first.
    func previousCopies() -> [URL] {
        let folder = libraryFolder.appendingPathComponent(".previous")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted().map { folder.appendingPathComponent($0) }
    }

    func cachedPDF() -> Data? {
        FileManager.default.contents(atPath: cachedFile.path)
    }

    /// The files `cache status` lists, as "PATH BYTES".
    func recordedFiles() throws -> [String] {
        let status = try bibread(["cache", "status", "lab", "--json"])
        let report = try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [[String: Any]]
        return ((report?.first?["files"] as? [[String: Any]]) ?? []).map { "\($0["path"] ?? "?") \($0["bytes"] ?? "?")" }
    }
}
