/// Merges two versions of a library that both started from one base, at the level of references
/// and fields: changes to different references or different fields are all kept, a reference
/// added on one side is kept, and the same field changed differently on both sides is a conflict
/// (the other side's value stays in the file; this side's is reported). Nothing is lost: a
/// reference deleted on one side and changed on the other is kept, and reported.
public enum ThreeWayMerge {
    /// The fields that say when a reference was last changed (BibDesk's `Date-Modified`,
    /// JabRef's `modificationdate`): bookkeeping, not content. Both sides changing one is no
    /// conflict, and this side's is not carried over: the edit that applies the merged
    /// changes writes the time of the merge there.
    public static let modificationDateFields: Set<String> = ["date-modified", "modificationdate"]

    /// What to do to `theirs` (the remote's version) so that it also holds what `mine` (this
    /// machine's) changed since `base` (the last version both had).
    public static func plan(base: [EntrySnapshot], mine: [EntrySnapshot], theirs: [EntrySnapshot]) -> MergePlan {
        let baseByIdentity = Dictionary(base.map { ($0.identity, $0) }, uniquingKeysWith: { first, _ in first })
        let theirsByIdentity = Dictionary(theirs.map { ($0.identity, $0) }, uniquingKeysWith: { first, _ in first })
        var plan = MergePlan()
        for change in LibraryDiff.changes(from: base, to: mine) {
            switch change {
            case .added(let entry):
                guard let other = theirsByIdentity[entry.identity] else {
                    plan.changes.append(change)
                    continue
                }
                // Added on both sides: what agrees is there; what differs is theirs, and reported.
                merge(LibraryDiff.fieldChanges(from: other, to: entry), of: entry, base: nil, theirs: other, into: &plan)
            case .removed(let entry):
                guard let other = theirsByIdentity[entry.identity] else { continue }
                if other == baseByIdentity[entry.identity] {
                    plan.changes.append(.removed(other))
                } else {
                    plan.conflicts.append(MergeConflict(kind: .deletedAndEdited, address: other.address, field: nil,
                                                        base: nil, mine: nil, theirs: nil))
                }
            case .changed(let entry, let fields):
                guard let other = theirsByIdentity[entry.identity] else {
                    // They deleted it, this side changed it: it comes back, and is reported.
                    plan.changes.append(.added(entry))
                    plan.conflicts.append(MergeConflict(kind: .deletedAndEdited, address: entry.address, field: nil,
                                                        base: nil, mine: nil, theirs: nil))
                    continue
                }
                merge(fields, of: entry, base: baseByIdentity[entry.identity], theirs: other, into: &plan)
            }
        }
        return plan
    }

    /// The merge of libraries (see `plan(base:mine:theirs:)`).
    public static func plan(base: Library, mine: Library, theirs: Library) -> MergePlan {
        plan(base: base.entries.map(EntrySnapshot.init), mine: mine.entries.map(EntrySnapshot.init),
             theirs: theirs.entries.map(EntrySnapshot.init))
    }

    /// Takes this side's field changes of one reference onto theirs: a field they left as it was
    /// gets this side's value, one they changed the same way needs nothing, one they changed
    /// otherwise is a conflict.
    private static func merge(_ fields: [FieldDifference], of entry: EntrySnapshot, base: EntrySnapshot?, theirs: EntrySnapshot,
                              into plan: inout MergePlan) {
        var toApply: [FieldDifference] = []
        for change in fields where !modificationDateFields.contains(change.field) {
            let theirValue = value(of: change.field, in: theirs)
            let baseValue = base.flatMap { value(of: change.field, in: $0) }
            if theirValue == change.after { continue }
            let takeMine: Bool
            if base != nil {
                takeMine = theirValue == baseValue
            } else {
                // Added on both sides, no base: a field only they have stays; one only this side
                // has is added; different values are a conflict.
                if change.after == nil { continue }
                takeMine = theirValue == nil
            }
            if takeMine {
                toApply.append(FieldDifference(field: change.field, before: theirValue, after: change.after))
            } else {
                plan.conflicts.append(MergeConflict(kind: .field, address: theirs.address, field: change.field,
                                                    base: baseValue, mine: change.after, theirs: theirValue))
            }
        }
        if !toApply.isEmpty { plan.changes.append(.changed(theirs, toApply)) }
    }

    private static func value(of field: String, in entry: EntrySnapshot) -> String? {
        field == FieldDifference.entryType ? entry.type : entry.fields[field]
    }
}
