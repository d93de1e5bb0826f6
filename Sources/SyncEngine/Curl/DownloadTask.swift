import CCurl
import DiskIO
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One download job while it runs: its easy handle and the destination file the body goes to.
///
/// What to do with the body is decided when its first byte arrives (or, for an empty body, at
/// the end), from the answer's status: write it to the file (from the start, or appended at
/// the resume offset), keep it in memory as an error page, or drop it.
final class DownloadTask {
    /// The job's position in the caller's list.
    let index: Int
    let handle: EasyHandle
    /// The last progress reported: bytes on disk, expected total, and when.
    var lastReport: (bytes: Int64, expected: Int64?, time: ContinuousClock.Instant)?

    private let request: TransferRequest
    private let path: String
    private var target = Target.undecided
    private var descriptor: Int32 = -1
    /// Bytes of the file kept before this answer's body (the resume offset when resumed).
    private var baseOffset: Int64 = 0
    private var written: Int64 = 0
    private var expectedLength: Int64?
    /// A failure found by this task (write error, wrong resume point); it wins over curl's.
    private var failure: TransferFailure?
    private var errorPage: [UInt8] = []

    private enum Target {
        case undecided
        case file
        case errorPage
        case ignored
    }

    /// The most of an HTTP error page that is kept for the message.
    private static let errorPageLimit = 16 * 1024

    /// Prepares `job`; fails at once when its destination is not a file URL or when resuming
    /// a file shorter than the resume offset.
    init(index: Int, job: DownloadJob) throws {
        self.index = index
        request = job.request
        path = job.destination.path
        guard job.destination.isFileURL else {
            throw TransferFailure.write(path: job.destination.absoluteString, reason: "not a file URL")
        }
        if request.resumeFrom > 0 {
            var info = stat()
            guard stat(path, &info) == 0 else {
                throw TransferFailure.write(path: path, reason: "cannot resume: \(Self.systemMessage(errno))")
            }
            guard Int64(info.st_size) >= request.resumeFrom else {
                throw TransferFailure.write(path: path, reason: "cannot resume at byte \(request.resumeFrom): the file holds \(info.st_size) bytes")
            }
        }
        handle = try EasyHandle()
        try handle.configure(for: request)
        handle.bodyHandler = { [unowned self] chunk in receive(chunk) }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The bytes of the file that belong to this job so far.
    var bytesOnDisk: Int64 {
        target == .file ? baseOffset + written : request.resumeFrom
    }

    /// The file's length once complete, when the server announced it.
    var expectedTotal: Int64? {
        target == .file ? expectedLength : nil
    }

    /// Stops without an outcome (cancelled): closes the file, keeping what was written.
    func abandon() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    /// The outcome, once curl reported the transfer finished with `result`.
    func finish(result: CURLcode, cancelled: Bool) -> DownloadOutcome {
        defer { abandon() }
        if let failure { return .failed(failure) }
        if cancelled && result == CURLE_ABORTED_BY_CALLBACK { return .cancelled }
        let status = handle.status
        let headers = handle.responseHeaders
        if handle.isHTTP && status >= 400 {
            if status == 416, request.resumeFrom > 0, Self.completeLength(headers["content-range"]) == request.resumeFrom {
                return .completed(status: status, headers: headers, bytesOnDisk: request.resumeFrom)
            }
            return .failed(.http(status: status, body: String(decoding: errorPage, as: UTF8.self),
                                 retryAfter: RetryAfter.seconds(headers["retry-after"])))
        }
        guard result == CURLE_OK else { return .failed(handle.failure(for: result)) }
        if target == .undecided {
            decide()
            if let failure { return .failed(failure) }
        }
        switch target {
        case .file:
            let descriptor = self.descriptor
            self.descriptor = -1
            if close(descriptor) != 0 {
                return .failed(.write(path: path, reason: Self.systemMessage(errno)))
            }
            return .completed(status: status, headers: headers, bytesOnDisk: baseOffset + written)
        case .ignored, .undecided, .errorPage:
            var info = stat()
            let length = stat(path, &info) == 0 ? Int64(info.st_size) : 0
            return .completed(status: status, headers: headers, bytesOnDisk: length)
        }
    }

    // MARK: The body

    /// Takes a piece of the body; false stops the transfer.
    private func receive(_ chunk: UnsafeRawBufferPointer) -> Bool {
        if target == .undecided { decide() }
        guard failure == nil else { return false }
        switch target {
        case .file:
            return append(chunk)
        case .errorPage:
            let room = Self.errorPageLimit - errorPage.count
            if room > 0 { errorPage.append(contentsOf: chunk.prefix(room)) }
            return true
        case .ignored, .undecided:
            return true
        }
    }

    /// Chooses where the body goes from the answer's status, and opens the file when it is
    /// written.
    private func decide() {
        let status = handle.status
        if handle.isHTTP && status >= 400 {
            target = .errorPage
            return
        }
        if handle.isHTTP && !(200..<300).contains(status) {
            target = .ignored
            return
        }
        var offset: Int64 = 0
        if request.resumeFrom > 0 && (!handle.isHTTP || status == 206) {
            if handle.isHTTP {
                let start = Self.rangeStart(handle.responseHeaders["content-range"])
                guard start == request.resumeFrom else {
                    failure = .curl(code: Int(CURLE_BAD_DOWNLOAD_RESUME.rawValue),
                                    message: "asked to resume at byte \(request.resumeFrom), the server sent \(handle.responseHeaders["content-range"].map { "range \($0)" } ?? "no Content-Range")")
                    return
                }
            }
            offset = request.resumeFrom
        }
        guard openDestination(keeping: offset) else { return }
        target = .file
        baseOffset = offset
        expectedLength = handle.announcedLength.map { $0 + offset }
    }

    /// Opens the destination, keeping its first `offset` bytes (none: truncated); records a
    /// write failure when it cannot.
    ///
    /// The file is locked (`flock`, released when it is closed) before anything is cut or
    /// written, and a file to resume must still be there, as long as it was: a second transfer
    /// to the same file, in this process or another, fails as
    /// ``TransferFailure/interference(path:reason:)`` rather than cut what the first one wrote,
    /// or resume a file that was renamed away meanwhile by writing after a new one's zeros, and
    /// leave a file of the right size with zeros in it.
    private func openDestination(keeping offset: Int64) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC | (offset > 0 ? 0 : O_CREAT), 0o644)
        guard descriptor >= 0 else {
            let code = errno
            failure = offset > 0 && code == ENOENT
                ? .interference(path: path, reason: "the partial download to resume was removed meanwhile")
                : .write(path: path, reason: Self.systemMessage(code))
            return false
        }
        self.descriptor = descriptor
        // A file system that cannot lock (some network ones) is written unlocked.
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK {
            failure = .interference(path: path, reason: "another download is writing it")
            return false
        }
        var info = stat()
        let isRegular = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        if isRegular && Int64(info.st_size) < offset {
            failure = .interference(path: path, reason: "the partial download to resume was cut meanwhile")
            return false
        }
        if (isRegular && ftruncate(descriptor, off_t(offset)) != 0) || (offset > 0 && lseek(descriptor, off_t(offset), SEEK_SET) < 0) {
            failure = .write(path: path, reason: Self.systemMessage(errno))
            return false
        }
        return true
    }

    /// Writes all of `chunk`; records a write failure and returns false when it cannot.
    private func append(_ chunk: UnsafeRawBufferPointer) -> Bool {
        var remaining = chunk
        while let start = remaining.baseAddress, !remaining.isEmpty {
            let count: Int
            do throws(SystemCallError) {
                count = try SystemCall.retrying("write") { write(descriptor, start, remaining.count) }
            } catch {
                failure = .write(path: path, reason: error.reason)
                return false
            }
            written += Int64(count)
            remaining = UnsafeRawBufferPointer(rebasing: remaining[count...])
        }
        return true
    }

    // MARK: Helpers

    /// The first byte of `Content-Range: bytes 100-199/200`.
    private static func rangeStart(_ header: String?) -> Int64? {
        guard let header else { return nil }
        let range = header.hasPrefix("bytes") ? header.dropFirst(5) : Substring(header)
        let digits = range.drop { $0 == " " || $0 == "=" }.prefix { $0.isASCII && $0.isNumber }
        return Int64(digits)
    }

    /// The complete length of `Content-Range: bytes */200` (or `bytes 0-9/200`).
    private static func completeLength(_ header: String?) -> Int64? {
        guard let header, let slash = header.lastIndex(of: "/") else { return nil }
        return Int64(header[header.index(after: slash)...].trimmingCharacters(in: .whitespaces))
    }

    private static func systemMessage(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
