import Foundation

extension Entry {
    /// This entry with `changes` made to its own fields, as a screen shows an edit before the
    /// file is read again: a changed field keeps its place and spelling, a removed one goes
    /// (every copy of it), a new one follows the entry's own fields. The entry keeps its file,
    /// position and line; only the values it shows change.
    public func applying(_ changes: [FieldChange]) -> Entry {
        guard !changes.isEmpty else { return self }
        var wanted: [String: FieldChange] = [:]
        for change in changes { wanted[change.name.lowercased()] = change }
        // A name no entry of the file has needs a store of names that can grow: a copy.
        let newNames = changes.filter { $0.newValue != nil && source.fieldNames.group(ofLowercase: $0.name.lowercased()) == nil }
        let names = newNames.isEmpty ? source.fieldNames : source.fieldNames.copy()
        let file = newNames.isEmpty ? source : SourceFile(sharing: source, names: names)
        var texts = self.texts
        var own: [Field] = []
        var written = Set<String>()
        for field in fields where !field.isInherited {
            let lower = name(of: field)
            guard let change = wanted[lower] else {
                own.append(field)
                continue
            }
            guard let value = change.newValue, written.insert(lower).inserted else { continue }
            texts.append(value)
            own.append(Field(nameID: field.nameID, kind: field.kind, storage: .text, first: UInt32(texts.count - 1), second: 0,
                             nameOffset: field.nameOffset))
        }
        for change in changes {
            let lower = change.name.lowercased()
            guard let value = wanted[lower]?.newValue, written.insert(lower).inserted else { continue }
            texts.append(value)
            let id = names.intern(spelled: change.name, lowercase: lower)
            own.append(Field(nameID: id, kind: names.kinds[Int(id)], storage: .text, first: UInt32(texts.count - 1), second: 0,
                             nameOffset: UInt32(clamping: offset)))
        }
        // Inherited fields stay, but for those the entry now has of its own.
        let ownNames = Set(own.map { names.lowercase[Int($0.nameID)] })
        let inherited = fields.filter { $0.isInherited && !ownNames.contains(name(of: $0)) }
        var edited = Entry(type: type, key: key, fields: own + inherited, texts: texts, source: file, offset: offset)
        edited.parents = parents
        edited.occurrence = occurrence
        return edited
    }
}

extension Library {
    /// The text of `entry` as its file has it (from its `@` to its closing brace), or nil when
    /// its text does not read cleanly as one entry.
    public func text(of entry: Entry) -> String? {
        guard let layout = EntryLayout.scan(entry.source.bytes, at: entry.offset) else { return nil }
        return String(decoding: entry.source.bytes[layout.entryStart..<layout.end], as: UTF8.self)
    }
}
