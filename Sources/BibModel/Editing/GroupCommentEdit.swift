import Foundation

/// A change of members of a BibDesk static group: the key added to or removed from the group's
/// `keys` string in `@comment{BibDesk Static Groups{…}}`.
struct GroupCommentEdit {
    let name: String
    let key: String
    let adding: Bool
    /// The comment's `@` offset and the group as found there.
    let commentOffset: Int
    let group: StaticGroupComment.Group

    init(group name: String, key: String, adding: Bool, file: BibFile) throws(EditError) {
        let found = try GroupCommentEdit.staticGroups(in: file)
        let names = found?.1.groups.map(\.name) ?? []
        guard let (offset, comment) = found, let group = comment.groups.first(where: { $0.name == name }) else {
            let listing = names.isEmpty ? " (it has none)" : "; its static groups: " + names.map { "\"\($0)\"" }.joined(separator: ", ")
            throw EditError(.unknownGroup, "no BibDesk static group named \"\(name)\" in \(file.source.path)\(listing)")
        }
        guard !key.contains(",") else {
            throw EditError(.invalidArgument, "the cite key '\(key)' holds a comma, which a BibDesk static group cannot list")
        }
        self.name = name
        self.key = key
        self.adding = adding
        self.commentOffset = offset
        self.group = group
    }

    /// The first `@comment{BibDesk Static Groups{…}}` of `file` (its `@` offset and its groups,
    /// as an edit finds them), nil when the file has none; throws when it cannot be read for
    /// editing.
    static func staticGroups(in file: BibFile) throws(EditError) -> (offset: Int, comment: StaticGroupComment)? {
        let opening = "BibDesk Static Groups{"
        guard let comment = file.comments.first(where: { $0.text.hasPrefix(opening) }) else { return nil }
        let plist = String(comment.text.dropFirst(opening.count).dropLast())
        guard let read = StaticGroupComment.read(file.source.bytes, commentAt: comment.offset, plist: plist) else {
            throw EditError(.unreadableEntry, "the BibDesk static groups of \(file.source.path) cannot be read for editing (see `bibread check`)")
        }
        return (comment.offset, read)
    }

    /// The members after the change.
    private var newKeys: String {
        let members = group.keys.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let isMember = members.contains { $0.trimmed == key }
        if adding {
            return isMember ? group.keys : (group.keys.trimmed.isEmpty ? key : group.keys + "," + key)
        }
        return members.filter { $0.trimmed != key }.joined(separator: ",")
    }

    var changesMembers: Bool { newKeys != group.keys }

    /// Two group edits of one entry: only one group per edit.
    static func merge(_ earlier: GroupCommentEdit?, _ later: GroupCommentEdit) throws(EditError) -> GroupCommentEdit {
        guard let earlier else { return later }
        guard earlier.name == later.name else {
            throw EditError(.invalidArgument, "one edit can change one static group; change \"\(earlier.name)\" and \"\(later.name)\" one at a time")
        }
        return later
    }

    /// The splice that writes the new member list, or nil when it is unchanged.
    func splice(in text: [UInt8], file: BibFile) throws(EditError) -> Splice? {
        guard changesMembers else { return nil }
        let escaped = XMLText.escape(newKeys)
        if !group.hasKeys {
            let indent = "\t\t"
            let ending = text[..<group.dictEnd].last(where: { $0 == 0x0A }).map { _ in "\n" } ?? "\n"
            return Splice(range: group.dictEnd..<group.dictEnd, text: indent.dropFirst(0) + "<key>keys</key>" + ending + indent + "<string>\(escaped)</string>" + ending + "\t")
        }
        if group.isEmptyTag { return Splice(range: group.keysRange, text: "<string>\(escaped)</string>") }
        return Splice(range: group.keysRange, text: escaped)
    }
}

/// The names of a JabRef library's explicit (static) groups, from its grouping comment.
enum JabRefGroupNames {
    static func explicitGroups(in file: BibFile) -> [String] {
        explicitGroupNodes(in: file).map(\.name)
    }

    /// The explicit groups with their level in the tree (1: under All Entries).
    static func explicitGroupNodes(in file: BibFile) -> [(name: String, level: Int)] {
        var nodes: [(name: String, level: Int)] = []
        for comment in file.comments {
            let text = comment.text.replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: "")
            for prefix in ["jabref-meta: grouping:", "jabref-meta: groupstree:"] where text.hasPrefix(prefix) {
                nodes += JabRefGroups.parse(String(text.dropFirst(prefix.count)))
                    .filter { $0.type == "StaticGroup" || $0.type == "ExplicitGroup" }
                    .compactMap { node in node.fields.first.map { (name: $0, level: node.level) } }
            }
        }
        return nodes
    }

    /// Why the groups of a JabRef 3 file (`groupstree`) are not edited.
    static func legacyRefusal(path: String) -> EditError {
        EditError(.invalidArgument, "\(path) keeps its JabRef groups in the old form (groupstree, JabRef 3), which lists members in the group itself; open and save it once in JabRef 4 or later, then try again")
    }

    static func listing(_ names: [String]) -> String {
        names.isEmpty ? " (it has none)" : "; its explicit groups: " + names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
