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
        let opening = "BibDesk Static Groups{"
        var found: (Int, StaticGroupComment)?
        for comment in file.comments where comment.text.hasPrefix(opening) {
            let plist = String(comment.text.dropFirst(opening.count).dropLast())
            guard let read = StaticGroupComment.read(file.source.bytes, commentAt: comment.offset, plist: plist) else {
                throw EditError(.unreadableEntry, "the BibDesk static groups of \(file.source.path) cannot be read for editing (see `bibread check`)")
            }
            found = (comment.offset, read)
            break
        }
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
        var names: [String] = []
        for comment in file.comments {
            let text = comment.text.replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: "")
            for prefix in ["jabref-meta: grouping:", "jabref-meta: groupstree:"] where text.hasPrefix(prefix) {
                names += JabRefGroups.parse(String(text.dropFirst(prefix.count)))
                    .filter { $0.type == "StaticGroup" || $0.type == "ExplicitGroup" }
                    .compactMap(\.fields.first)
            }
        }
        return names
    }

    static func listing(_ names: [String]) -> String {
        names.isEmpty ? " (it has none)" : "; its explicit groups: " + names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
