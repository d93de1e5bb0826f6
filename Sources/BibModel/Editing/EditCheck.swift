import Foundation

/// The check made before an edited file replaces the old one: the new bytes read as the old file
/// plus the edit, and nothing else.
///
/// Both files are parsed on their own (the same way, so that `@string`s from other files of a
/// library weigh the same on both sides), then:
/// - every byte outside the replaced ranges is the old file's;
/// - the files have the same entries, in order, with the same types and keys;
/// - every entry but the edited one has the same fields with the same values, in order;
/// - the edited entry has the old fields with the changes made and no others, the fields that
///   did not change in their old order;
/// - the comments, `@string`s and `@preamble`s are the same, but for the member list of the one
///   static group that changed;
/// - the new file has no more errors than the old;
/// - and each edit holds: the entry reads as read, rated, tagged or grouped as asked.
///
/// For a whole entry put in (`WholeEntryChange.inserted`) or taken out (`.removed`): the new file
/// has the old entries, in order and unchanged, with the added one at its place reading as its
/// text, or without the removed one; the comments, `@string`s and `@preamble`s are the same.
public enum EditCheck {
    /// Throws `.checkFailed`, saying what differs, unless `result` is `original` plus the edit.
    ///
    /// `parsedOriginal` is `original` as `BibFile.parse` read it on its own (a fresh macro
    /// table), when the caller has it (the edit was made on it), so that it is not read twice;
    /// the new bytes are always read.
    public static func verify(original: [UInt8], parsedOriginal: BibFile? = nil, result: EditResult, path: String) throws(EditError) {
        try verifyBytes(original: original, result: result, path: path)
        var oldMacros = MacroTable()
        var newMacros = MacroTable()
        let old = parsedOriginal ?? BibFile.parse(bytes: original, path: path, macros: &oldMacros)
        let new = BibFile.parse(bytes: result.bytes, path: path, macros: &newMacros)
        func fail(_ what: String) -> EditError {
            EditError(.checkFailed, "the edited \(path) was not written: read back, \(what)")
        }
        let errorsBefore = old.diagnostics.filter { $0.severity == .error }.count
        let errorsAfter = new.diagnostics.filter { $0.severity == .error }.count
        guard errorsAfter <= errorsBefore else {
            let first = new.diagnostics.first { $0.severity == .error }.map { " (\($0.message))" } ?? ""
            throw fail("it has \(errorsAfter) errors where it had \(errorsBefore)\(first)")
        }
        if let whole = result.wholeEntry {
            try verifyWholeEntry(whole, old: old.entries, new: new.entries, macros: newMacros, result: result, path: path, fail: fail)
        } else {
            try verifyEntries(old: old, new: new, result: result, fail: fail)
        }
        guard old.strings == new.strings, old.preambles.map(\.text) == new.preambles.map(\.text) else {
            throw fail("its @string or @preamble blocks changed")
        }
        try verifyComments(old: old.comments, new: new.comments, result: result, fail: fail)
    }

    /// The entries of a field edit: the same, in order, but for the edited one.
    private static func verifyEntries(old oldFile: BibFile, new newFile: BibFile, result: EditResult,
                                      fail: (String) -> EditError) throws(EditError) {
        let (old, new) = (oldFile.entries, newFile.entries)
        guard old.count == new.count else {
            throw fail("it has \(new.count) entries where it had \(old.count)")
        }
        for index in old.indices {
            let (before, after) = (old[index], new[index])
            guard before.type == after.type, before.key == after.key else {
                throw fail("entry \(index + 1) is @\(after.type){\(after.key) where it was @\(before.type){\(before.key)")
            }
            let oldFields = fieldList(before)
            let newFields = fieldList(after)
            if index != result.entryIndex {
                guard oldFields.map(\.lower) == newFields.map(\.lower), oldFields.map(\.value) == newFields.map(\.value) else {
                    throw fail("@\(after.type){\(after.key), which was not edited, changed")
                }
                continue
            }
            try verifyEdited(before: oldFields, after: newFields, result: result, fail: fail)
            let conventions = LibraryConventions(file: newFile, entries: new)
            try verifyIntent(result.edits, entry: after, conventions: conventions, file: newFile, fail: fail)
        }
    }

    /// The entries of a whole entry put in or taken out: the old ones, in order, with that one
    /// added at its place (reading as its text) or gone.
    private static func verifyWholeEntry(_ change: WholeEntryChange, old: [Entry], new: [Entry], macros: MacroTable,
                                         result: EditResult, path: String, fail: (String) -> EditError) throws(EditError) {
        let index = result.entryIndex
        let expectedCount: Int
        switch change {
        case .inserted: expectedCount = old.count + 1
        case .removed: expectedCount = old.count - 1
        }
        guard new.count == expectedCount, index >= 0, index < max(old.count, new.count) else {
            throw fail("it has \(new.count) entries where \(expectedCount) were expected")
        }
        let kept: [Entry]
        switch change {
        case .inserted(let text):
            let entry = try LibraryEditor.singleEntry(text, path: path)
            let written = new[index]
            // Its text byte for byte (its values read with the file's `@string`s, so compared as text).
            guard written.type == entry.type, written.key == entry.key, LibraryEditor.text(of: written) == text else {
                throw fail("the added @\(entry.type){\(entry.key) does not read as the entry given")
            }
            // And its values read as they do with every `@string` of the file defined (none is
            // used before it is defined).
            var every = macros
            let alone = BibFile.parse(bytes: Array(text.utf8), path: path, macros: &every)
            guard let complete = alone.entries.first, sameEntry(written, complete) else {
                throw fail("the added @\(entry.type){\(entry.key) does not read as it would after the file's @string definitions")
            }
            kept = Array(new[..<index] + new[(index + 1)...])
            guard kept.count == old.count else { throw fail("its entries are not the old ones and the added one") }
        case .removed:
            kept = new
        }
        let others = change == .removed ? Array(old[..<index] + old[(index + 1)...]) : old
        for (before, after) in zip(others, kept) {
            guard sameEntry(before, after) else {
                throw fail("@\(before.type){\(before.key), which was not edited, changed")
            }
        }
    }

    /// Whether two entries have the same type, key and own fields with the same values, in order.
    private static func sameEntry(_ one: Entry, _ other: Entry) -> Bool {
        let (oneFields, otherFields) = (fieldList(one), fieldList(other))
        return one.type == other.type && one.key == other.key && oneFields.map(\.lower) == otherFields.map(\.lower)
            && oneFields.map(\.value) == otherFields.map(\.value)
    }

    private static func verifyBytes(original: [UInt8], result: EditResult, path: String) throws(EditError) {
        var oldCursor = 0
        var newCursor = 0
        let new = result.bytes
        for replacement in result.replacements {
            let count = replacement.range.lowerBound - oldCursor
            guard replacement.range.upperBound <= original.count, newCursor + count <= new.count,
                  original[oldCursor..<replacement.range.lowerBound].elementsEqual(new[newCursor..<(newCursor + count)]) else {
                throw EditError(.checkFailed, "the edited \(path) was not written: bytes outside the edit changed")
            }
            oldCursor = replacement.range.upperBound
            newCursor += count + replacement.newCount
        }
        guard original.count - oldCursor == new.count - newCursor, original[oldCursor...].elementsEqual(new[newCursor...]) else {
            throw EditError(.checkFailed, "the edited \(path) was not written: bytes outside the edit changed")
        }
    }

    private struct NamedValue {
        let lower: String
        let value: String
    }

    private static func fieldList(_ entry: Entry) -> [NamedValue] {
        entry.fields.filter { !$0.isInherited }.map { NamedValue(lower: entry.name(of: $0), value: entry.rawText(of: $0)) }
    }

    private static func verifyEdited(before: [NamedValue], after: [NamedValue], result: EditResult,
                                     fail: (String) -> EditError) throws(EditError) {
        let changed = Dictionary(result.changes.map { ($0.name.lowercased(), $0.newValue) }, uniquingKeysWith: { $1 })
        let keptBefore = before.filter { changed[$0.lower] == nil }
        let keptAfter = after.filter { changed[$0.lower] == nil }
        guard keptBefore.map(\.lower) == keptAfter.map(\.lower), keptBefore.map(\.value) == keptAfter.map(\.value) else {
            throw fail("fields of @\(result.address.text) that were not edited changed")
        }
        for (name, value) in changed {
            let found = after.first { $0.lower == name }?.value
            guard found == value else {
                throw fail("'\(name)' of \(result.address.text) is \(found.map { "'\($0)'" } ?? "missing") where '\(value ?? "nothing")' was written")
            }
        }
    }

    private static func verifyIntent(_ edits: [EntryEdit], entry: Entry, conventions: LibraryConventions, file: BibFile,
                                     fail: (String) -> EditError) throws(EditError) {
        var read: Bool?
        var rating: Int?
        var keywords: [String: Bool] = [:]
        var groups: [String: Bool] = [:]
        for edit in edits {
            switch edit {
            case .markRead(let flag): read = flag
            case .rate(let value): rating = value
            case .addKeywords(let words): for word in words { keywords[word.trimmed.lowercased()] = true }
            case .removeKeywords(let words): for word in words { keywords[word.trimmed.lowercased()] = false }
            case .addToGroup(let name): groups[name] = true
            case .removeFromGroup(let name): groups[name] = false
            case .setField(let name, _), .removeField(let name):
                // A later edit of the field itself decides its value.
                let lower = name.lowercased()
                if lower == conventions.readField.lowercased() { read = nil }
                if lower == conventions.ratingField.lowercased() { rating = nil }
                if lower == conventions.keywordsField.lowercased() { keywords = [:] }
                if lower == "groups", conventions.dialect == .jabRef { groups = [:] }
            }
        }
        if let read, conventions.isRead(entry) != read { throw fail("\(entry.key) is not marked \(read ? "read" : "unread")") }
        if let rating, conventions.rating(of: entry) != rating { throw fail("\(entry.key) is not rated \(rating)") }
        let present = Set(KeywordList.items(in: entry.raw(conventions.keywordsField) ?? "").map { $0.text.lowercased() })
        for (word, wanted) in keywords where present.contains(word) != wanted {
            throw fail("\(entry.key) \(wanted ? "lacks" : "still has") the keyword '\(word)'")
        }
        for (name, wanted) in groups where isMember(entry, of: name, conventions: conventions, file: file) != wanted {
            throw fail("\(entry.key) is \(wanted ? "not" : "still") in the group \"\(name)\"")
        }
    }

    private static func isMember(_ entry: Entry, of group: String, conventions: LibraryConventions, file: BibFile) -> Bool {
        if conventions.dialect == .jabRef {
            return KeywordList.items(in: entry.raw("groups") ?? "").contains { $0.text == group }
        }
        let opening = "BibDesk Static Groups{"
        guard let comment = file.comments.first(where: { $0.text.hasPrefix(opening) }),
              case .success(let found) = BibDeskGroups.parse(String(comment.text.dropFirst(opening.count).dropLast()), kind: .static),
              let match = found.first(where: { $0.name == group }), case .keys(let keys) = match.rule else { return false }
        return keys.contains(entry.key)
    }

    private static func verifyComments(old: [Block], new: [Block], result: EditResult, fail: (String) -> EditError) throws(EditError) {
        guard old.count == new.count else { throw fail("it has \(new.count) comments where it had \(old.count)") }
        let opening = "BibDesk Static Groups{"
        for (before, after) in zip(old, new) where before.text != after.text {
            guard let group = result.changedGroupComment, before.text.hasPrefix(opening), after.text.hasPrefix(opening),
                  case .success(let oldGroups) = BibDeskGroups.parse(String(before.text.dropFirst(opening.count).dropLast()), kind: .static),
                  case .success(let newGroups) = BibDeskGroups.parse(String(after.text.dropFirst(opening.count).dropLast()), kind: .static)
            else { throw fail("a comment changed") }
            guard oldGroups.map(\.name) == newGroups.map(\.name) else { throw fail("the static groups changed names") }
            for (was, now) in zip(oldGroups, newGroups) where was.name != group {
                guard case .keys(let a) = was.rule, case .keys(let b) = now.rule, a == b else {
                    throw fail("the static group \"\(was.name)\" changed, not only \"\(group)\"")
                }
            }
        }
    }
}
