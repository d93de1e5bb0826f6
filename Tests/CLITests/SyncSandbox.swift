import BibreadTestSupport
import Foundation

/// A remote folder holding the sample library and its PDFs, and this machine's XDG folders, in
/// one temporary folder removed at the end; `bibread` runs with those folders.
final class SyncSandbox {
    let root: URL
    /// The remote's content (served by a test server, or synced as a folder remote).
    let remote: URL
    var environment: [String: String]

    init() throws {
        root = try Fixtures.temporaryDirectory()
        remote = root.appendingPathComponent("remote")
        environment = Fixtures.isolatedEnvironment(under: root)
        try Fixtures.copySampleLibrary(to: remote)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func bibread(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.bibread(arguments, environment: environment)
    }

    /// `$XDG_CACHE_HOME`: the folder holding every remote's cache.
    var cachesRoot: URL { root.appendingPathComponent("cache") }

    /// The PDF cache of the remote kept as `name`.
    func cache(_ name: String) -> URL { root.appendingPathComponent("cache/bibread/\(name)") }

    /// The library folder of the remote kept as `name`.
    func library(_ name: String) -> URL { root.appendingPathComponent("data/bibread/remotes/\(name)") }

    /// Writes config.toml.
    func configure(_ text: String) throws {
        let folder = root.appendingPathComponent("config/bibread")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try text.write(to: folder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
    }

    /// Adds a reference to the remote's library.bib.
    func appendEntry(_ text: String) throws {
        let handle = try FileHandle(forWritingTo: remote.appendingPathComponent("library.bib"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(("\n" + text + "\n").utf8))
        try handle.close()
    }

    /// Adds `papers/big.pdf` of `bytes` bytes to the remote, linked by the reference `big`,
    /// whose yes/no field `wanted` is set (`--field wanted` selects it alone).
    func addBigPDF(bytes: Int) throws {
        try Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) })
            .write(to: remote.appendingPathComponent("papers/big.pdf"))
        try appendEntry("@misc{big, title = {Big}, wanted = {yes}, file = {:papers/big.pdf:PDF}}")
    }

    /// The size of the file at `url` (not following a link), or nil when there is none.
    func size(_ url: URL) -> Int64? {
        var status = stat()
        return lstat(url.path, &status) == 0 ? Int64(status.st_size) : nil
    }

    /// Every regular file below `folder` (links not followed), as paths relative to it.
    func files(under folder: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { relative in
            var status = stat()
            return lstat(folder.appendingPathComponent(relative).path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        }.sorted()
    }

    /// Runs `bibread sync arguments…`, waits until `file` holds at least `bytes` bytes, then
    /// interrupts it (SIGINT, as Ctrl-C does) and waits for it to exit; returns its status.
    func interruptedSync(_ arguments: [String], once file: URL, holds bytes: Int64) throws -> Int32 {
        try interruptedSync(arguments, once: "\(file.path) holds \(bytes) bytes") { (size(file) ?? 0) >= bytes }.status
    }

    /// Runs `bibread sync arguments…`, waits until `ready` says so (`what` says what it waits
    /// for), then interrupts it (SIGINT, as Ctrl-C does); returns its status, its output and how
    /// long it took to exit after the interrupt.
    func interruptedSync(_ arguments: [String], once what: String,
                         _ ready: () -> Bool) throws -> (status: Int32, output: String, secondsToExit: Double) {
        let process = Process()
        process.executableURL = ProcessRunner.bibreadExecutable
        process.arguments = ["sync"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let log = root.appendingPathComponent("interrupted-sync.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        defer { try? logHandle.close() }
        process.standardOutput = logHandle
        process.standardError = logHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(TestTiming.seconds(60))
        while process.isRunning && !ready() && Date() < deadline { usleep(20_000) }
        let reached = ready()
        let interrupted = Date()
        process.interrupt()
        process.waitUntilExit()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard reached else { throw SyncSandboxError("the sync ended, or a minute passed, before \(what): \(output)") }
        return (process.terminationStatus, output, Date().timeIntervalSince(interrupted))
    }

    /// The JSON events of a `sync --json`, one object a line.
    static func events(_ result: ProcessResult) -> [[String: Any]] {
        result.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}

/// A step of a sandbox did not go as a test needs.
struct SyncSandboxError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
