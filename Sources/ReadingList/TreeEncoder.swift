import PropertyList

/// Turns a `ReadingList` into the plist tree every format writes, with keys in a fixed order:
/// `Class`, `Name`, then `IncludesPageNotes` (root) / `Children` / `Text` / `Reference`, `Notes`.
enum TreeEncoder {
    /// The plist tree for `list`.
    static func encode(_ list: ReadingList) -> PropertyListValue {
        var root = PropertyListDictionary()
        root.append("Class", .string("Folder"))
        root.append("Name", .string(list.root.name))
        if list.includesPageNotes { root.append("IncludesPageNotes", .string("YES")) }
        root.append("Children", .array(list.root.children.map { encode($0, notes: list.includesPageNotes) }))
        return .dictionary(root)
    }

    private static func encode(_ node: BookmarkNode, notes includesNotes: Bool) -> PropertyListValue {
        var dictionary = PropertyListDictionary()
        switch node {
        case .folder(let folder):
            dictionary.append("Class", .string("Folder"))
            dictionary.append("Name", .string(folder.name))
            dictionary.append("Children", .array(folder.children.map { encode($0, notes: includesNotes) }))
        case .notemark(let notemark):
            dictionary.append("Class", .string("Notemark"))
            dictionary.append("Name", .string(notemark.name))
            dictionary.append("Text", .string(notemark.text))
        case .bookmark(let bookmark):
            dictionary.append("Class", .string("Bookmark"))
            dictionary.append("Name", .string(bookmark.name))
            var reference = PropertyListDictionary()
            reference.append("Class", .string("Reference"))
            reference.append("CiteKey", .string(bookmark.reference.citeKey))
            if let library = bookmark.reference.library { reference.append("Library", .string(library)) }
            reference.append("Page", .integer(Int64(bookmark.reference.page)))
            if let lastPage = bookmark.reference.lastPage { reference.append("LastPage", .integer(Int64(lastPage))) }
            dictionary.append("Reference", .dictionary(reference))
            if includesNotes, !bookmark.notes.isEmpty {
                dictionary.append("Notes", .array(bookmark.notes.map { .string($0) }))
            }
        }
        return .dictionary(dictionary)
    }
}
