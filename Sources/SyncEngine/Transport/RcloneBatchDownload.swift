import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Many files through one `rclone copy --files-from-raw LIST ROOT STAGING` (one program started
/// instead of one per file: its start costs about what a small PDF takes to arrive), into a
/// staging folder beside the first `.part` file. rclone's log (`--use-json-log`, one JSON object
/// a line) says when each file is copied: that file is renamed to its `.part` at once and its
/// job ends, while the others go on. A file rclone does not copy (gone from the remote, an error)
/// fails with what rclone said of it. Cancelled or stalled, the files that had begun are moved to
/// their `.part` all the same, so that the next sync resumes them.
final class RcloneBatchDownload: RcloneDownloadRun {
    private let jobs: [Int: DownloadJob]
    /// Which job each file is, by its path from the remote's root as rclone logs it.
    private var byObject: [String: Int] = [:]
    private let staging: URL
    private let list: URL
    private let process: ChildProcess
    private let output: FileHandle
    private let log: FileHandle
    private var logOffset: UInt64 = 0
    private var unfinishedLine = Data()
    /// What rclone said of a file it could not copy.
    private var problems: [String: String] = [:]
    private var pending: Set<Int>
    private var sizes: [Int: Int64] = [:]
    private var lastActivity = Date()
    private var lastSizes = Date.distantPast
    private let stallTimeout: Double

    init(_ all: [DownloadJob], _ indices: [Int], location: RcloneLocation, program: RcloneProgram, parallel: Int) throws {
        jobs = Dictionary(uniqueKeysWithValues: indices.map { ($0, all[$0]) })
        pending = Set(indices)
        stallTimeout = indices.map { all[$0].request.stallTimeout }.max() ?? 0
        var names: [String] = []
        for index in indices {
            guard let relative = location.relativePath(of: all[index].request.url) else {
                throw TransferFailure.program(name: "rclone", message: "not a path of this remote", transient: false)
            }
            byObject[relative] = index
            names.append(relative)
        }
        let folder = all[indices[0]].destination.deletingLastPathComponent()
        // What a run that was killed left here (one sync of a remote at a time: no other run's).
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(Self.stagingPrefix) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
        staging = folder.appendingPathComponent(Self.stagingPrefix + UUID().uuidString)
        list = URL(fileURLWithPath: staging.path + ".files")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
        try Data((names.joined(separator: "\n") + "\n").utf8).write(to: list)
        output = try RcloneProgram.scratchFile()
        log = try RcloneProgram.scratchFile()
        let transfers = String(max(1, parallel))
        process = try program.start(["copy", "--files-from-raw", list.path, "--no-traverse", "--ignore-times",
                                     "--transfers", transfers, "--checkers", transfers, "--stats", "0",
                                     "--use-json-log", "--log-level", "INFO", location.root, staging.path],
                                    output: output, errors: log)
    }

    /// The name of a staging folder, and of its list of files, starts so.
    static let stagingPrefix = ".bibread-rclone-"

    deinit {
        try? FileManager.default.removeItem(at: staging)
        try? FileManager.default.removeItem(at: list)
    }

    func poll(progress: (Int, Int64) -> Void, ended: (Int, DownloadOutcome) -> Void) -> Bool {
        let status = process.poll()
        readLog(ended: ended)
        let now = Date()
        if now.timeIntervalSince(lastSizes) >= 0.25 || status != nil {
            lastSizes = now
            for (object, index) in byObject where pending.contains(index) {
                var information = stat()
                guard stat(staging.appendingPathComponent(object).path, &information) == 0 else { continue }
                let size = Int64(information.st_size)
                if sizes[index] != size {
                    sizes[index] = size
                    lastActivity = now
                    progress(index, size)
                }
            }
        }
        guard let status else {
            guard stallTimeout > 0, now.timeIntervalSince(lastActivity) > stallTimeout.rounded(.up) else { return false }
            process.stop()
            let stalled = TransferFailure.program(name: "rclone", message: "nothing arrived for \(Int(stallTimeout.rounded(.up))) s", transient: true)
            finishPending({ _ in .failed(stalled) }, ended: ended)
            return true
        }
        readLog(ended: ended)
        let summary = RcloneProgram.Outcome(status: status, output: [], errors: "")
        let objects = Dictionary(uniqueKeysWithValues: byObject.map { ($1, $0) })
        finishPending({ index in
            if let problem = objects[index].flatMap({ problems[$0] }) {
                return .failed(.program(name: "rclone", message: problem, transient: true))
            }
            // Not copied and nothing said: it is no longer on the remote (rclone skips a name it does not find).
            return .failed(status == 0 ? .program(name: "rclone", message: "the file is no longer on the remote", transient: false)
                                       : summary.failure)
        }, ended: ended)
        return true
    }

    func cancel(ended: (Int, DownloadOutcome) -> Void) {
        process.stop()
        readLog(ended: ended)
        finishPending({ _ in .cancelled }, ended: ended)
    }

    /// Ends every job not ended yet with `outcome`, its file moved to its `.part` if it began.
    private func finishPending(_ outcome: (Int) -> DownloadOutcome, ended: (Int, DownloadOutcome) -> Void) {
        for (object, index) in byObject.sorted(by: { $0.value < $1.value }) where pending.contains(index) {
            _ = moveIntoPlace(object, index)
            pending.remove(index)
            ended(index, outcome(index))
        }
    }

    /// Reads the lines rclone added to its log: a file copied ends its job.
    private func readLog(ended: (Int, DownloadOutcome) -> Void) {
        // pread, never a seek: rclone writes through a descriptor that shares this one's offset,
        // so a seek here would make it write over lines not read yet.
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(log.fileDescriptor, $0.baseAddress, $0.count, off_t(logOffset)) }
            guard count > 0 else { break }
            data.append(contentsOf: chunk[..<count])
            logOffset += UInt64(count)
        }
        guard !data.isEmpty else { return }
        lastActivity = Date()
        unfinishedLine.append(data)
        var lines = unfinishedLine.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        unfinishedLine = Data(lines.removeLast())
        for line in lines {
            guard let entry = try? JSONDecoder().decode(LogLine.self, from: Data(line)), let object = entry.object,
                  let index = byObject[object], pending.contains(index) else { continue }
            if entry.msg.hasPrefix("Copied") {
                pending.remove(index)
                if let size = moveIntoPlace(object, index) {
                    ended(index, .completed(status: 0, headers: [:], bytesOnDisk: size))
                } else {
                    ended(index, .failed(.write(path: jobs[index]?.destination.path ?? object, reason: "cannot move the copy rclone made into place")))
                }
            } else if entry.level == "error" {
                problems[object] = RcloneMessage.cleaned(entry.msg)
            }
        }
    }

    /// Moves the staged copy of `object` to its job's `.part`; its size, or nil when there is none.
    private func moveIntoPlace(_ object: String, _ index: Int) -> Int64? {
        guard let destination = jobs[index]?.destination.path else { return nil }
        let staged = staging.appendingPathComponent(object).path
        var information = stat()
        guard lstat(staged, &information) == 0, (information.st_mode & S_IFMT) == S_IFREG, rename(staged, destination) == 0 else { return nil }
        return Int64(information.st_size)
    }

    /// What of a line of rclone's JSON log is read.
    private struct LogLine: Decodable {
        var level: String
        var msg: String
        var object: String?
    }
}
