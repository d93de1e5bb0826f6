import Foundation

/// Applies a three-way merge to a library file's bytes: what `mine` changed since `base` is
/// made to `theirs` with the edit engine, each change checked by `EditCheck`, so that every
/// byte of `theirs` that the merge does not change stays as it was. A field both sides changed
/// differently keeps `theirs`' value and is returned as a conflict. Without a base, every field
/// that differs is such a conflict, and nothing is removed. The push of a synced library and
/// `bibread merge-conflicted` both merge this way.
public enum LibraryMerge {
    /// The merged file and what went into it.
    public struct Result: Sendable {
        /// `theirs` with this side's changes.
        public let bytes: [UInt8]
        /// The fields both sides changed differently, and references deleted on one side and
        /// changed on the other (kept).
        public let conflicts: [MergeConflict]
        /// How many references had fields changed, were added, were removed.
        public let changedReferences: Int
        public let addedReferences: Int
        public let removedReferences: Int

        /// Whether the merge changed nothing in `theirs`.
        public var isUnchanged: Bool { changedReferences + addedReferences + removedReferences == 0 }
    }

    /// Merges. Changed fields first (at the addresses of `theirs`), then references removed on
    /// this side (a duplicate key's later ones first, so that the addresses of the others hold),
    /// then references added on this side (after the reference that precedes them here, when
    /// `theirs` has it). `path` names the file in messages; `date` is the modification date
    /// written where the file keeps one.
    ///
    /// `ownUpload`: bytes this side put on the remote without keeping them as the base (a push
    /// killed after its upload landed, and another machine's change on top since). A field
    /// `theirs` holds as that upload had it is this side's own earlier value, not another
    /// machine's: this side's later value wins it, with no conflict.
    public static func merge(mine: [UInt8], theirs: [UInt8], base: [UInt8]?, path: String, at date: Date,
                             ownUpload: [UInt8]? = nil) throws -> Result {
        func parse(_ bytes: [UInt8]) -> Library { Library.parse([(path: path, bytes: bytes)]) }
        let myLibrary = parse(mine)
        let theirLibrary = parse(theirs)
        var plan = ThreeWayMerge.plan(base: base.map { parse($0).entries.map(EntrySnapshot.init) } ?? [],
                                      mine: myLibrary.entries.map(EntrySnapshot.init),
                                      theirs: theirLibrary.entries.map(EntrySnapshot.init))
        if let ownUpload {
            let own = parse(ownUpload)
            plan.conflicts = plan.conflicts.filter { conflict in
                guard conflict.kind == .field, let field = conflict.field, field != FieldDifference.entryType,
                      let uploaded = own.entry(at: conflict.address).map(EntrySnapshot.init), uploaded.fields[field] == conflict.theirs,
                      let entry = theirLibrary.entry(at: conflict.address).map(EntrySnapshot.init) else { return true }
                plan.changes.append(.changed(entry, [FieldDifference(field: field, before: conflict.theirs, after: conflict.mine)]))
                return false
            }
        }
        var bytes = theirs
        func apply(_ edit: (LibraryEditor, Library) throws -> EditResult) throws {
            let library = parse(bytes)
            let result = try edit(try LibraryEditor(library: library, path: path, fileBytes: bytes), library)
            try EditCheck.verify(original: bytes, result: result, path: path)
            bytes = result.bytes
        }
        var changed = 0
        var removed: [EntrySnapshot] = []
        var added: [EntrySnapshot] = []
        for change in plan.changes {
            switch change {
            case .added(let entry): added.append(entry)
            case .removed(let entry): removed.append(entry)
            case .changed(let entry, let fields):
                let edits: [EntryEdit] = fields.compactMap { difference in
                    guard difference.field != FieldDifference.entryType else { return nil }
                    return difference.after.map { .setField(difference.field, to: $0) } ?? .removeField(difference.field)
                }
                guard !edits.isEmpty else { continue }
                try apply { editor, _ in try editor.apply(edits, to: entry.address, at: date) }
                changed += 1
            }
        }
        for entry in removed.sorted(by: { $0.occurrence > $1.occurrence }) {
            try apply { editor, _ in try editor.removeEntry(at: entry.address) }
        }
        for entry in added {
            guard let index = myLibrary.entries.firstIndex(where: { $0.entryAddress == entry.address }),
                  let text = LibraryEditor.text(of: myLibrary.entries[index]) else {
                throw EditError(.unreadableEntry, "\(entry.address), added on one side, does not read cleanly as BibTeX (see bibread check)")
            }
            try apply { editor, library in
                let neighbour = myLibrary.entries[..<index].last { library.entry(at: $0.entryAddress) != nil }
                return try editor.insertEntry(text, after: neighbour?.entryAddress)
            }
        }
        return Result(bytes: bytes, conflicts: plan.conflicts, changedReferences: changed, addedReferences: added.count,
                      removedReferences: removed.count)
    }
}
