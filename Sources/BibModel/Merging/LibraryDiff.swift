/// What changed between two versions of a library, reference by reference and field by field.
/// References are matched by cite key (as the library folds keys) and occurrence (`key#2`).
public enum LibraryDiff {
    /// The changes that turn `old` into `new`.
    public static func changes(from old: [EntrySnapshot], to new: [EntrySnapshot]) -> [EntryChange] {
        var oldByIdentity: [EntryIdentity: EntrySnapshot] = [:]
        for entry in old where oldByIdentity[entry.identity] == nil { oldByIdentity[entry.identity] = entry }
        var seen = Set<EntryIdentity>()
        var changes: [EntryChange] = []
        for entry in new where seen.insert(entry.identity).inserted {
            guard let before = oldByIdentity[entry.identity] else {
                changes.append(.added(entry))
                continue
            }
            let fields = fieldChanges(from: before, to: entry)
            if !fields.isEmpty { changes.append(.changed(entry, fields)) }
        }
        for entry in old where !seen.contains(entry.identity) && oldByIdentity[entry.identity] == entry {
            changes.append(.removed(entry))
            seen.insert(entry.identity)
        }
        return changes
    }

    /// The changes between two libraries' entries.
    public static func changes(from old: Library, to new: Library) -> [EntryChange] {
        changes(from: old.entries.map(EntrySnapshot.init), to: new.entries.map(EntrySnapshot.init))
    }

    /// The fields that differ between two versions of one reference (the type first).
    static func fieldChanges(from old: EntrySnapshot, to new: EntrySnapshot) -> [FieldDifference] {
        var changes: [FieldDifference] = []
        if old.type != new.type { changes.append(FieldDifference(field: FieldDifference.entryType, before: old.type, after: new.type)) }
        for name in new.fields.keys.sorted() where old.fields[name] != new.fields[name] {
            changes.append(FieldDifference(field: name, before: old.fields[name], after: new.fields[name]))
        }
        for name in old.fields.keys.sorted() where new.fields[name] == nil {
            changes.append(FieldDifference(field: name, before: old.fields[name], after: nil))
        }
        return changes
    }
}
