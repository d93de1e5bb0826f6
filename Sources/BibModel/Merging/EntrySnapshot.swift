/// One reference as a merge compares it: its type and its own fields' values exactly as written
/// (inherited `crossref` fields left out), by lower-cased field name.
public struct EntrySnapshot: Sendable, Hashable {
    public let address: EntryAddress
    public let key: CiteKey
    /// Which of the references with this key it is (1 for the first).
    public let occurrence: Int
    /// The entry type in lower case (`article`).
    public let type: String
    /// Each own field's value as written inside its braces or quotes (LaTeX and macros kept).
    public let fields: [String: String]

    public init(_ entry: Entry) {
        address = entry.entryAddress
        key = entry.citeKey
        occurrence = entry.occurrence
        type = entry.type.lowercased()
        var fields: [String: String] = [:]
        for field in entry.fields where !field.isInherited {
            let name = entry.name(of: field)
            if fields[name] == nil { fields[name] = entry.rawText(of: field) }
        }
        self.fields = fields
    }

    /// Which reference this is in any version of the library: its cite key as the library folds
    /// it, and which of the references with that key (`key#2`).
    var identity: EntryIdentity {
        EntryIdentity(key: key.folded, occurrence: occurrence)
    }
}

/// A reference's identity across versions of a library.
struct EntryIdentity: Hashable, Sendable {
    let key: String
    let occurrence: Int
}
