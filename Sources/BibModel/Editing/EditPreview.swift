import Foundation

/// What edits will change in one entry, worked out as `LibraryEditor` works them out (the same
/// conventions, the same checks) but without writing bytes: a screen shows the change at once
/// from it, while the file is written in the background.
public struct EditPreview: Sendable {
    /// The fields that will change (the modification date aside: the write sets it).
    public let changes: [FieldChange]
    /// True when the edit changes a static group's member list, kept outside the entry (a
    /// BibDesk group comment).
    public let changesGroupComment: Bool

    /// The preview of `edits` on `entry` of `library`, whose file follows `conventions`.
    ///
    /// Throws what `LibraryEditor` would: a Zotero export is read-only, a value the file's
    /// encoding cannot hold or that is not valid BibTeX is refused, a group must exist.
    public init(_ edits: [EntryEdit], on entry: Entry, in library: Library, conventions: LibraryConventions) throws(EditError) {
        guard let file = library.files.first(where: { $0.source.path == entry.source.path }) else {
            throw EditError(.unknownEntry, "\(entry.source.path) is not a file of this library")
        }
        if conventions.dialect == .zotero { throw EditError.zoteroExport(file.source.path, conventions: conventions) }
        guard let layout = EntryLayout.scan(entry.source.bytes, at: entry.offset) else {
            throw EditError.unreadable(entry, path: file.source.path)
        }
        var draft = EntryDraft(entry: entry, layout: layout, text: entry.source.bytes, conventions: conventions)
        var groupEdit: GroupCommentEdit?
        for edit in edits {
            if let group = try draft.apply(edit, library: library, file: file) {
                groupEdit = try GroupCommentEdit.merge(groupEdit, group)
            }
        }
        changes = draft.changes
        changesGroupComment = groupEdit?.changesMembers == true
    }
}

extension EditError {
    /// The refusal to edit a Zotero export.
    static func zoteroExport(_ path: String, conventions: LibraryConventions) -> EditError {
        EditError(.readOnly, "\(path) is a Zotero export (\(conventions.evidence ?? "Better BibTeX")): Zotero writes it again on every export, so a change here would be lost; change the reference in Zotero instead")
    }

    /// The refusal to edit an entry whose text does not read cleanly.
    static func unreadable(_ entry: Entry, path: String) -> EditError {
        EditError(.unreadableEntry, "@\(entry.type){\(entry.key) at \(path):\(entry.line) cannot be edited: its text does not read cleanly as BibTeX (see `bibread check`)")
    }
}
