import BibModel
import ReadingList

/// The page-note editor of the reading view (`n`), an overlay over it.
public struct NoteEditor: Sendable, Equatable {
    /// The paper whose page note this is (notes are kept by cite key).
    public let citeKey: CiteKey
    public let page: Int
    /// The text as it was when the editor opened.
    public let original: String
    /// The note being written, with its insertion point.
    public var field: TextField
    /// Esc was pressed once with unsaved changes: a second Esc discards them. While asked,
    /// only the answers act (Esc, C-s, Enter back to the note, Ctrl-C).
    public var confirmingDiscard = false
    /// Ctrl-C was pressed with unsaved changes: a second Ctrl-C quits without them.
    public var confirmingQuit = false

    public init(citeKey: CiteKey, page: Int, text: String) {
        self.citeKey = citeKey
        self.page = page
        original = text
        field = TextField(text)
    }

    public var string: String { field.text }
    public var isChanged: Bool { string != original }

    /// The scope of the keys: the editor's, or its question's while one is asked.
    var scope: ActionScope { confirmingQuit || confirmingDiscard ? .noteQuestion : .noteEditor }
}
