import Foundation

/// The static groups one reference can be filed into, each with whether the reference is in
/// it: BibDesk's static groups (the first `@comment{BibDesk Static Groups{…}}` of the
/// reference's file) or JabRef's explicit groups (its `jabref-meta: grouping`, members naming
/// the group in their `groups` field): the groups `EntryEdit.addToGroup` and
/// `.removeFromGroup` (and `bibread group add|remove`) accept for that file.
public struct StaticGroupMembership: Sendable, Equatable {
    /// One group of the list.
    public struct Choice: Sendable, Equatable {
        /// The group's name as the file writes it (the name an edit takes).
        public let name: String
        /// How deep it is in the file's group tree (0: at the top).
        public let depth: Int
        /// Whether the reference is in it.
        public let isMember: Bool

        public init(name: String, depth: Int, isMember: Bool) {
            self.name = name
            self.depth = depth
            self.isMember = isMember
        }
    }

    /// The groups in the file's order (none when the file has no static groups).
    public let choices: [Choice]
    /// Whose groups they are.
    public let dialect: LibraryConventions.Dialect
    /// The file that keeps them (the reference's).
    public let path: String

    /// The static groups of `entry`'s file in `library`, with the entry's membership; an error
    /// says why its groups cannot be changed here (a Zotero export, JabRef 3 groups, a group
    /// comment that cannot be read for editing). `conventions`: the file's, when known (working
    /// them out reads the whole file).
    public static func of(_ entry: Entry, in library: Library,
                          conventions known: LibraryConventions? = nil) -> Result<StaticGroupMembership, EditError> {
        guard let file = library.files.first(where: { $0.source === entry.source }) else {
            return .failure(EditError(.unknownEntry, "\(entry.address) is not in a file of this library"))
        }
        let path = file.source.path
        let conventions = known ?? LibraryConventions(file: file, entries: library.entries.filter { $0.source === file.source })
        if let refusal = conventions.readOnlyRefusal(path: path) { return .failure(refusal) }
        if conventions.dialect == .jabRef {
            if conventions.hasLegacyJabRefGroups { return .failure(JabRefGroupNames.legacyRefusal(path: path)) }
            let own = entry.fields.first { !$0.isInherited && entry.name(of: $0) == "groups" }
            let memberOf = Set(own.map { KeywordList.items(in: entry.rawText(of: $0)).map(\.text) } ?? [])
            let choices = JabRefGroupNames.explicitGroupNodes(in: file).map { node in
                Choice(name: node.name, depth: max(0, node.level - 1), isMember: memberOf.contains(node.name))
            }
            return .success(StaticGroupMembership(choices: choices, dialect: .jabRef, path: path))
        }
        do throws(EditError) {
            let groups = try GroupCommentEdit.staticGroups(in: file)?.comment.groups ?? []
            let choices = groups.map { group in
                let members = group.keys.split(separator: ",", omittingEmptySubsequences: false)
                return Choice(name: group.name, depth: 0, isMember: members.contains { String($0).trimmed == entry.key })
            }
            return .success(StaticGroupMembership(choices: choices, dialect: conventions.dialect, path: path))
        } catch {
            return .failure(error)
        }
    }
}
