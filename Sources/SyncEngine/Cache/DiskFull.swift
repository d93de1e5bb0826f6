import DiskIO
import Foundation
import GRDB

/// A write that found the disk full, and what bibread freed of its own there: the partial
/// downloads of the remote's cache, which cannot finish now and take the room every other
/// write needs (SQLite's among them, which would fail every later sync with "database or disk
/// is full"). Its message says where, how much room is left and what was freed.
public struct DiskFull: Error, Sendable, Equatable, CustomStringConvertible {
    /// The folder the write was for.
    public var folder: String
    /// The bytes that were left on that disk for bibread, before anything was freed.
    public var available: Int64?
    /// The partial downloads removed to make room, and their bytes.
    public var freedFiles: Int
    public var freedBytes: Int64

    /// Notes a full disk under `folder`, with the room left there (see ``available(under:)``)
    /// and what was freed since.
    init(folder: String, available: Int64?, freedFiles: Int = 0, freedBytes: Int64 = 0) {
        self.folder = folder
        self.available = available
        self.freedFiles = freedFiles
        self.freedBytes = freedBytes
    }

    /// The bytes left for an unprivileged writer on the disk holding `folder`, if it can be told.
    static func available(under folder: String) -> Int64? {
        var info = statvfs()
        return statvfs(folder, &info) == 0 ? Int64(info.f_bavail) * Int64(info.f_frsize) : nil
    }

    public var description: String {
        let left = available.map { $0 > 0 ? " (\(Self.format($0)) free)" : " (nothing free)" } ?? ""
        let freed = freedFiles == 0 ? ""
            : "; removed \(PartialDownloads.describe(count: freedFiles, bytes: freedBytes)) to make room"
        return "the disk holding \(folder) is full\(left)\(freed); free some space there, or sync fewer PDFs"
    }

    private static func format(_ bytes: Int64) -> String {
        ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file)
    }

    /// Whether `error` is a write that found no room: `ENOSPC` or `EDQUOT` (in a download, an
    /// atomic write or a folder made), or SQLite's `SQLITE_FULL`.
    static func isCause(of error: Error) -> Bool {
        switch error {
        case let failure as TransferFailure:
            if case .write(_, let reason) = failure { return isNoRoom(reason) }
            return false
        case let failure as AtomicFile.WriteError:
            return isNoRoom(failure.reason)
        case let failure as DatabaseError:
            return failure.resultCode == .SQLITE_FULL
        default:
            var error = error as NSError
            while true {
                if error.domain == NSPOSIXErrorDomain && [Int(ENOSPC), Int(EDQUOT)].contains(error.code) { return true }
                guard let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError else { return false }
                error = underlying
            }
        }
    }

    /// Whether a system message is the one for `ENOSPC` or `EDQUOT` (every write failure here
    /// is reported with `strerror`).
    private static func isNoRoom(_ reason: String) -> Bool {
        [ENOSPC, EDQUOT].contains { reason.hasSuffix(String(cString: strerror($0))) }
    }
}
