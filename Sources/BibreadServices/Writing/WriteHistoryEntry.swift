import Foundation

/// One edit bibread wrote to a library file, as its history keeps it: what it was, when, and
/// the content hash (SHA-256, hex) and size of the file before and after it. The version
/// before it is kept beside the history's index, named by its hash.
public struct WriteHistoryEntry: Sendable, Equatable, Codable {
    /// What made the edit, for people: `mark read knuth1984`, `undo`.
    public var command: String
    /// When it was written, in seconds since 1970.
    public var date: Double
    /// The hash of the file before the edit (the kept copy's name).
    public var before: String
    /// Its size before the edit.
    public var beforeSize: Int64
    /// The hash of what the edit wrote.
    public var after: String
    /// The size of what the edit wrote.
    public var afterSize: Int64

    public init(command: String, date: Double, before: String, beforeSize: Int64, after: String, afterSize: Int64) {
        self.command = command
        self.date = date
        self.before = before
        self.beforeSize = beforeSize
        self.after = after
        self.afterSize = afterSize
    }

    /// When it was written, as local time (`2026-11-27 01:22:10`).
    public var dateText: String { LibraryWriteError.timeText(date) }
}
