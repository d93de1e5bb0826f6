import BibModel
import Foundation
import ReadingList

/// Line arithmetic of the note editor (lines split at newlines).
enum NoteEditorLines {
    static func lineStart(_ text: [Character], before cursor: Int) -> Int {
        var index = min(cursor, text.count)
        while index > 0 && text[index - 1] != "\n" { index -= 1 }
        return index
    }

    static func lineEnd(_ text: [Character], from cursor: Int) -> Int {
        var index = min(cursor, text.count)
        while index < text.count && text[index] != "\n" { index += 1 }
        return index
    }

    /// The cursor one line up or down, at the same column or the line's end.
    static func verticalMove(_ text: [Character], cursor: Int, by step: Int) -> Int {
        let start = lineStart(text, before: cursor)
        let column = cursor - start
        if step < 0 {
            guard start > 0 else { return 0 }
            let previousStart = lineStart(text, before: start - 1)
            return min(previousStart + column, start - 1)
        }
        let end = lineEnd(text, from: cursor)
        guard end < text.count else { return text.count }
        let nextStart = end + 1
        return min(nextStart + column, lineEnd(text, from: nextStart))
    }
}
