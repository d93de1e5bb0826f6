import Foundation

/// The line numbers of one source file (see `SourceFile.lineNumbers`).
public struct LineNumbers: Sendable {
    let index: LineIndex

    /// The line where `entry` starts; `entry` must come from this file.
    public func line(of entry: Entry) -> Int { index.line(of: entry.offset) }

    /// The line where `entry` starts, found fast when entries are asked in file order: `hint`
    /// (start at 0) carries where the last one was.
    public func line(of entry: Entry, hint: inout Int) -> Int { index.line(of: entry.offset, hint: &hint) }
}
