import Foundation

/// Why a file could not be opened as a regular file.
public enum RegularFileError: Error, Equatable, CustomStringConvertible {
    /// Something else is there: `kind` says what (`a FIFO`, `a directory`, `a character device`).
    case notRegular(String)
    /// The system refused (the file is missing, unreadable, …): its errno.
    case system(Int32)
    /// The file holds more than `limit` bytes, the most a caller reads whole.
    case tooLarge(limit: Int)

    public var description: String {
        switch self {
        case .notRegular(let kind): return "not a regular file (\(kind))"
        case .system(let number): return String(cString: strerror(number))
        case .tooLarge(let limit): return "larger than \(limit) bytes"
        }
    }

    /// Whether the file is missing (or a directory on its path is).
    public var isMissing: Bool { self == .system(ENOENT) || self == .system(ENOTDIR) }

    static func kind(ofType type: mode_t) -> String {
        switch type {
        case S_IFIFO: return "a FIFO"
        case S_IFDIR: return "a directory"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "of an unknown kind"
        }
    }
}
