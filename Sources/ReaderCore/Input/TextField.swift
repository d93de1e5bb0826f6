/// The one text field: the search bar, every prompt and the page-note editor edit their text
/// with it. The text is a list of characters with an insertion point; one-line fields keep the
/// point at the end (their keys never move it), the note editor moves it and breaks lines.
public struct TextField: Sendable, Equatable {
    public private(set) var characters: [Character]
    /// The insertion point, an index into `characters`.
    public private(set) var cursor: Int

    /// A field holding `text`, the insertion point at its end.
    public init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    public var text: String { String(characters) }

    /// Applies an editing action (or, with nil, types `key` when it is a character); returns
    /// whether the action is one a text field does. The text-field scope's actions and typing
    /// work in every field; the cursor and line actions only where their scope binds them.
    public mutating func apply(_ action: Action?, key: Key) -> Bool {
        switch action {
        case .deleteBackward:
            if cursor > 0 {
                characters.remove(at: cursor - 1)
                cursor -= 1
            }
        case .clearLine:
            let start = lineStart
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .deleteWord:
            var start = cursor
            while start > 0 && characters[start - 1] == " " { start -= 1 }
            while start > 0 && characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .newLine: insert("\n")
        case .indent: insert("    ")
        case .deleteForward:
            if cursor < characters.count { characters.remove(at: cursor) }
        case .cursorLeft: cursor = max(0, cursor - 1)
        case .cursorRight: cursor = min(characters.count, cursor + 1)
        case .lineStart: cursor = lineStart
        case .lineEnd: cursor = lineEnd(from: cursor)
        case .cursorUp: cursor = verticalMove(by: -1)
        case .cursorDown: cursor = verticalMove(by: 1)
        case nil:
            guard case .character(let character) = key else { return false }
            insert(String(character))
        default:
            return false
        }
        return true
    }

    private mutating func insert(_ text: String) {
        characters.insert(contentsOf: text, at: cursor)
        cursor += text.count
    }

    // MARK: - Lines (split at newlines)

    private var lineStart: Int { lineStart(before: cursor) }

    private func lineStart(before index: Int) -> Int {
        var index = min(index, characters.count)
        while index > 0 && characters[index - 1] != "\n" { index -= 1 }
        return index
    }

    private func lineEnd(from index: Int) -> Int {
        var index = min(index, characters.count)
        while index < characters.count && characters[index] != "\n" { index += 1 }
        return index
    }

    /// The insertion point one line up or down, at the same column or the line's end.
    private func verticalMove(by step: Int) -> Int {
        let start = lineStart
        let column = cursor - start
        if step < 0 {
            guard start > 0 else { return 0 }
            let previousStart = lineStart(before: start - 1)
            return min(previousStart + column, start - 1)
        }
        let end = lineEnd(from: cursor)
        guard end < characters.count else { return characters.count }
        let nextStart = end + 1
        return min(nextStart + column, lineEnd(from: nextStart))
    }
}
