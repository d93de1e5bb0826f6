import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One file coming through `rclone cat [--offset N]`, straight into its `.part` file; the
/// size of the file is the progress; a run that writes nothing for the request's stall
/// timeout is ended and fails as a passing failure.
final class RcloneFileDownload: RcloneDownloadRun {
    private let index: Int
    private let process: ChildProcess
    private let file: FileHandle
    private let errors: FileHandle
    private let stallTimeout: Double
    private var size: Int64
    private var lastChange = Date()
    private var lastReport = Date.distantPast

    init(_ job: DownloadJob, index: Int, program: RcloneProgram) throws {
        self.index = index
        let path = job.destination.path
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

    func poll(progress: (Int, Int64) -> Void, ended: (Int, DownloadOutcome) -> Void) -> Bool {
        // Whether it still runs, first: once it has ended, the size read next is the whole file.
        let status = process.poll()
        var information = stat()
        let now = Date()
        if fstat(file.fileDescriptor, &information) == 0, Int64(information.st_size) != size {
            size = Int64(information.st_size)
            lastChange = now
            if now.timeIntervalSince(lastReport) >= 0.1 {
                lastReport = now
                progress(index, size)
            }
        }
        guard let status else {
            guard stallTimeout > 0, now.timeIntervalSince(lastChange) > stallTimeout.rounded(.up) else { return false }
            process.stop()
            ended(index, .failed(.program(name: "rclone", message: "nothing arrived for \(Int(stallTimeout.rounded(.up))) s", transient: true)))
            return true
        }
        let outcome = RcloneProgram.Outcome(status: status, output: [], errors: RcloneProgram.text(of: errors))
        if outcome.status != 0 {
            ended(index, .failed(outcome.isNotFound ? .program(name: "rclone", message: "the file is no longer on the remote", transient: false)
                                                    : outcome.failure))
        } else {
            progress(index, size)
            ended(index, .completed(status: 0, headers: [:], bytesOnDisk: size))
        }
        return true
    }

    func cancel(ended: (Int, DownloadOutcome) -> Void) {
        process.stop()
        ended(index, .cancelled)
    }
}
