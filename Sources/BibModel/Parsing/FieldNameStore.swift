import Foundation

/// The distinct field names of one file, numbered in the order they are first met.
///
/// Names are added only while the library is built (parsing, then `crossref`), on one thread;
/// afterwards the store is only read, from any thread.
public final class FieldNameStore: @unchecked Sendable {
    private(set) var lowercase: [String] = []
    /// The UTF-8 length of each lower-case name that is ASCII, -1 for the others (what
    /// `Entry.field(_:)` tests before comparing names).
    private(set) var asciiLengths: [Int] = []
    private(set) var spellings: [String] = []
    private(set) var kinds: [FieldKind] = []
    /// The same number for every spelling of one name (`Title`, `title`).
    private(set) var groups: [Int] = []
    private var idsBySpelling: [String: UInt32] = [:]
    private var groupsByLowercase: [String: Int] = [:]

    init() {}

    /// A store with the same names and numbers, to extend without touching this one.
    func copy() -> FieldNameStore {
        let copy = FieldNameStore()
        copy.lowercase = lowercase
        copy.asciiLengths = asciiLengths
        copy.spellings = spellings
        copy.kinds = kinds
        copy.groups = groups
        copy.idsBySpelling = idsBySpelling
        copy.groupsByLowercase = groupsByLowercase
        return copy
    }

    /// The number of a name as spelled, if the store has it.
    func id(spelled: String) -> UInt32? { idsBySpelling[spelled] }

    /// How many distinct names (ignoring case) the store holds: one more than its largest group.
    var groupCount: Int { groupsByLowercase.count }

    /// The group of a lower-case name, or nil when no field of the file has that name.
    func group(ofLowercase name: String) -> Int? { groupsByLowercase[name] }

    /// The name of a field numbered in this store, as the file spells it.
    func spelling(of field: Field) -> String { spellings[Int(field.nameID)] }

    /// The number of a name, adding it when new.
    func intern(spelled: String, lowercase: String) -> UInt32 {
        if let id = idsBySpelling[spelled] { return id }
        let id = UInt32(spellings.count)
        let group = groupsByLowercase[lowercase] ?? groupsByLowercase.count
        groupsByLowercase[lowercase] = group
        idsBySpelling[spelled] = id
        spellings.append(spelled)
        self.lowercase.append(lowercase)
        asciiLengths.append(lowercase.utf8.allSatisfy { $0 < 0x80 } ? lowercase.utf8.count : -1)
        kinds.append(FieldKind(lowercaseName: lowercase))
        groups.append(group)
        return id
    }
}
