import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A sync's downloads over rclone: one `rclone cat [--offset N] PATH` per file, writing straight
/// into its `.part` file, at most `parallel` at a time. The size of the `.part` is the progress;
/// a cancel ends every run (SIGKILL) and leaves what arrived, to resume from; a run that writes
/// nothing for the request's stall timeout is ended and fails as a passing failure.
extension RcloneTransport: Downloading {
    public func download(_ jobs: [DownloadJob], parallel: Int,
                         progress: (Int, Int64, Int64?) -> Void,
                         isCancelled: () -> Bool,
                         finished: (Int, DownloadOutcome) -> Void) -> [DownloadOutcome] {
        var outcomes = [DownloadOutcome?](repeating: nil, count: jobs.count)
        var running: [Int: RcloneDownload] = [:]
        var next = 0
        func end(_ index: Int, _ outcome: DownloadOutcome) {
            outcomes[index] = outcome
            finished(index, outcome)
        }
        while next < jobs.count || !running.isEmpty {
            if isCancelled() {
                for (index, download) in running.sorted(by: { $0.key < $1.key }) {
                    download.stop()
                    end(index, .cancelled)
                }
                running = [:]
                for index in next..<jobs.count { end(index, .cancelled) }
                break
            }
            while running.count < max(1, parallel) && next < jobs.count {
                do {
                    running[next] = try RcloneDownload(jobs[next], program: program)
                } catch {
                    end(next, .failed(error as? TransferFailure ?? .write(path: jobs[next].destination.path, reason: "\(error)")))
                }
                next += 1
            }
            usleep(20_000)
            for (index, download) in running.sorted(by: { $0.key < $1.key }) {
                if let outcome = download.poll(progress: { progress(index, $0, nil) }) {
                    running[index] = nil
                    end(index, outcome)
                }
            }
        }
        return outcomes.map { $0 ?? .cancelled }
    }
}

/// One file coming through `rclone cat`.
private final class RcloneDownload {
    private let process: RcloneProcess
    private let file: FileHandle
    private let errors: FileHandle
    private let path: String
    private let stallTimeout: Double
    private var size: Int64
    private var lastChange = Date()
    private var lastReport = Date.distantPast

    init(_ job: DownloadJob, program: RcloneProgram) throws {
        path = job.destination.path
        stallTimeout = job.request.stallTimeout
        let offset = max(0, job.request.resumeFrom)
        // A resumed file is cut to the offset asked (what is beyond may be half written), and the rest appended.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (offset == 0 ? O_TRUNC : 0), 0o644)
        guard descriptor >= 0 else { throw TransferFailure.write(path: path, reason: String(cString: strerror(errno))) }
        file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0, Int64(status.st_size) >= offset, ftruncate(descriptor, off_t(offset)) == 0,
              lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw TransferFailure.interference(path: path, reason: "the partial file is shorter than the \(offset) bytes to resume from")
        }
        size = offset
        errors = try RcloneProgram.scratchFile()
        let arguments = ["cat"] + (offset > 0 ? ["--offset", String(offset)] : []) + [job.request.url]
        process = try program.start(arguments, output: file, errors: errors)
    }

    /// Reports the bytes on disk now and then; the outcome once rclone has ended (or stalled).
    func poll(progress: (Int64) -> Void) -> DownloadOutcome? {
        // Whether it still runs, first: once it has ended, the size read next is the whole file.
        let ended = process.poll()
        var status = stat()
        let now = Date()
        if fstat(file.fileDescriptor, &status) == 0, Int64(status.st_size) != size {
            size = Int64(status.st_size)
            lastChange = now
            if now.timeIntervalSince(lastReport) >= 0.1 {
                lastReport = now
                progress(size)
            }
        }
        guard let ended else {
            guard stallTimeout > 0, now.timeIntervalSince(lastChange) > stallTimeout.rounded(.up) else { return nil }
            stop()
            return .failed(.program(name: "rclone", message: "nothing arrived for \(Int(stallTimeout.rounded(.up))) s", transient: true))
        }
        let outcome = RcloneProgram.Outcome(status: ended, output: [], errors: RcloneProgram.text(of: errors))
        guard outcome.status == 0 else {
            return .failed(outcome.isNotFound ? .program(name: "rclone", message: "the file is no longer on the remote", transient: false)
                                              : outcome.failure)
        }
        progress(size)
        return .completed(status: 0, headers: [:], bytesOnDisk: size)
    }

    /// Ends the run and waits for it.
    func stop() {
        process.stop()
    }
}
