import ReadingList

/// The page-note editor of the reading view (`n`).
public struct NoteEditor: Sendable, Equatable {
    public let key: String
    public let page: Int
    /// The text as it was when the editor opened.
    public let original: String
    public var text: [Character]
    /// The insertion point, an index into `text`.
    public var cursor: Int
    /// Esc was pressed once with unsaved changes: a second Esc discards them. While asked,
    /// only the answers act (Esc, C-s, Enter back to the note, Ctrl-C).
    public var confirmingDiscard = false
    /// Ctrl-C was pressed with unsaved changes: a second Ctrl-C quits without them.
    public var confirmingQuit = false

    public init(key: String, page: Int, text: String) {
        self.key = key
        self.page = page
        original = text
        self.text = Array(text)
        cursor = self.text.count
    }

    public var string: String { String(text) }
    public var isChanged: Bool { string != original }
}
