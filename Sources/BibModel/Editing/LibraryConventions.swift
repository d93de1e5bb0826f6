import Foundation

/// Whose library a .bib file is, and so which fields and formats an edit uses: BibDesk's, JabRef's,
/// or none (a Zotero export, which Zotero writes again on every export).
///
/// What each application writes, from its own sources:
/// - BibDesk (`BibItem.m`, `NSString_BDSKExtensions.m`, `Preferences.plist`, `BibDocument.m`): the
///   boolean field `Read` holds `1` or `0`; `Rating` holds `0`…`5`; `Keywords` are joined with the
///   group field separator (`; ` by default; read with any of `,:;`); `Date-Modified` holds
///   `2024-03-01 10:22:33 +0100` (`NSCalendarDate`'s description); static groups are an XML plist
///   in `@comment{BibDesk Static Groups{…}}`, each group's `keys` a comma-separated string.
/// - JabRef (`SpecialField`, `SpecialFieldValue`, `KeywordList`, `ExplicitGroup`,
///   `TimestampPreferences`): `readstatus` is `read` or `skimmed` (none: unread); `ranking` is
///   `rank1`…`rank5`; keywords and the `groups` field are joined with the keyword separator (`,`
///   by default) and a space; an explicit group's members name it in their `groups` field;
///   `modificationdate` holds `2024-03-01T10:22:33` when the user has JabRef keep it.
/// - Better BibTeX writes no header; its exports are known by its quality report
///   (`% ? Title looks like it was stored in title-case in Zotero`), its postfix
///   (`\ifdefined\DeclarePrefChars`) or linked files in Zotero's `storage` folder.
public struct LibraryConventions: Sendable, Equatable {
    /// The applications whose conventions bibread writes in.
    public enum Dialect: String, Sendable {
        case bibDesk = "BibDesk"
        case jabRef = "JabRef"
        /// A Zotero (Better BibTeX) export: read-only.
        case zotero = "Zotero"
    }

    /// Whose conventions the file follows.
    public let dialect: Dialect
    /// What in the file said so, for messages (`the @comment{jabref-meta: …} block`); nil when
    /// nothing did and BibDesk's conventions are used by default.
    public let evidence: String?
    /// The text between two keywords (and two groups in JabRef's `groups` field).
    public let keywordSeparator: String
    /// True when the file's entries keep a modification date (BibDesk's `Date-Modified`,
    /// JabRef's `modificationdate`), which an edit then updates.
    public let keepsModificationDate: Bool
    /// True when JabRef's groups are in the old `groupstree` form (JabRef 3), whose explicit
    /// groups list their members' keys in the comment.
    public let hasLegacyJabRefGroups: Bool

    /// The field that says whether a reference was read.
    public var readField: String { dialect == .jabRef ? "readstatus" : "Read" }
    /// The field that holds the rating.
    public var ratingField: String { dialect == .jabRef ? "ranking" : "Rating" }
    /// The field that holds the keywords.
    public var keywordsField: String { dialect == .jabRef ? "keywords" : "Keywords" }
    /// The field that holds the date of the last change.
    public var modificationDateField: String { dialect == .jabRef ? "modificationdate" : "Date-Modified" }

    /// True when `entry` is marked read in these conventions (JabRef's `skimmed` is not read).
    public func isRead(_ entry: Entry) -> Bool {
        guard let value = entry.raw(readField)?.trimmingCharacters(in: .whitespaces) else { return false }
        return dialect == .jabRef ? value.lowercased() == "read" : SmartCondition.isTrue(value)
    }

    /// The entry's rating, 0 (none) to 5.
    public func rating(of entry: Entry) -> Int {
        guard let value = entry.raw(ratingField)?.trimmingCharacters(in: .whitespaces).lowercased() else { return 0 }
        let digits = dialect == .jabRef && value.hasPrefix("rank") ? String(value.dropFirst(4)) : value
        return min(5, max(0, Int(digits) ?? 0))
    }

    /// Why the file at `path` cannot be edited (a Zotero export), or nil when it can.
    public func readOnlyRefusal(path: String) -> EditError? {
        guard dialect == .zotero else { return nil }
        return EditError(.readOnly, "\(path) is a Zotero export (\(evidence ?? "Better BibTeX")): Zotero writes it again on every export, so a change here would be lost; change the reference in Zotero instead")
    }

    /// The value of the read field for `read`, or nil when the field is to be removed.
    func readValue(_ read: Bool) -> String? {
        switch dialect {
        case .jabRef: return read ? "read" : nil
        case .bibDesk, .zotero: return read ? "1" : "0"
        }
    }

    /// The value of the rating field for `rating` (1…5); 0 removes the field.
    func ratingValue(_ rating: Int) -> String? {
        guard rating > 0 else { return nil }
        return dialect == .jabRef ? "rank\(rating)" : String(rating)
    }

    /// The modification date as the dialect writes it, at `date` in `timeZone`.
    func modificationDate(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        let day = String(format: "%04d", parts.year ?? 0) + "-" + two(parts.month) + "-" + two(parts.day)
        let time = two(parts.hour) + ":" + two(parts.minute) + ":" + two(parts.second)
        if dialect == .jabRef { return day + "T" + time }
        let offset = timeZone.secondsFromGMT(for: date) / 60
        let zone = (offset < 0 ? "-" : "+") + two(abs(offset) / 60) + two(abs(offset) % 60)
        return day + " " + time + " " + zone
    }
}

extension LibraryConventions {
    /// The conventions of the file at `path` in `library` (nil when the library has no such file).
    public init?(of library: Library, path: String) {
        guard let file = library.files.first(where: { $0.source.path == path }) else { return nil }
        self.init(file: file, entries: library.entries.filter { $0.source === file.source })
    }

    /// The conventions of each file of `library`, by path (one pass over the entries).
    public static func byPath(of library: Library) -> [String: LibraryConventions] {
        byPath(files: library.files, entries: library.entries)
    }

    /// The conventions of each of `files`, whose entries are among `entries`, by path.
    static func byPath(files: [BibFile], entries: [Entry]) -> [String: LibraryConventions] {
        // One file (most libraries): its entries are all of them, without a copy of each entry
        // and a hash of its file's path (half of counting Unread on a 46k-reference file).
        if files.count == 1, let file = files.first,
           entries.allSatisfy({ $0.source === file.source || $0.source.path == file.source.path }) {
            return [file.source.path: LibraryConventions(file: file, entries: entries)]
        }
        var entriesByPath: [String: [Entry]] = [:]
        for entry in entries { entriesByPath[entry.source.path, default: []].append(entry) }
        var conventions: [String: LibraryConventions] = [:]
        for file in files where conventions[file.source.path] == nil {
            conventions[file.source.path] = LibraryConventions(file: file, entries: entriesByPath[file.source.path] ?? [])
        }
        return conventions
    }

    /// The conventions of one file, from its text, its comments and its entries.
    init(file: BibFile, entries: [Entry]) {
        let head = String(decoding: file.source.bytes.prefix(4096), as: UTF8.self)
        let comments = file.comments.map(\.text)
        let hasLegacy = comments.contains { $0.hasPrefix("jabref-meta: groupstree:") }
        let keepsDate: (String) -> Bool = { name in entries.contains { $0.field(name) != nil } }
        if let zotero = LibraryConventions.zoteroEvidence(file: file, head: head, entries: entries) {
            self.init(dialect: .zotero, evidence: zotero, keywordSeparator: ", ", keepsModificationDate: false,
                      hasLegacyJabRefGroups: false)
            return
        }
        // The header says which application saved the file last; each keeps the other's
        // comments, so a header outweighs them.
        var jabRef: String?
        var bibDesk: String?
        if head.contains("created using BibDesk") {
            bibDesk = "its header (\"created using BibDesk\")"
        } else if head.range(of: "created with JabRef", options: .caseInsensitive) != nil {
            jabRef = "its header (\"This file was created with JabRef\")"
        } else if comments.contains(where: { $0.hasPrefix("jabref-meta:") }) {
            jabRef = "its @comment{jabref-meta: …} blocks"
        } else if comments.contains(where: { $0.hasPrefix("BibDesk ") }) {
            bibDesk = "its @comment{BibDesk … Groups{…}} blocks"
        } else if entries.contains(where: { entry in entry.fields.contains { entry.name(of: $0).hasPrefix("bdsk-") } }) {
            bibDesk = "its Bdsk-File and Bdsk-Url fields"
        }
        if let jabRef {
            self.init(dialect: .jabRef, evidence: jabRef,
                      keywordSeparator: LibraryConventions.separator(in: entries, field: "keywords") ?? ", ",
                      keepsModificationDate: keepsDate("modificationdate"), hasLegacyJabRefGroups: hasLegacy)
            return
        }
        self.init(dialect: .bibDesk, evidence: bibDesk,
                  keywordSeparator: LibraryConventions.separator(in: entries, field: "keywords") ?? "; ",
                  keepsModificationDate: keepsDate("date-modified"), hasLegacyJabRefGroups: false)
    }

    /// Why the file is a Zotero export, if it is.
    /// Only what lies outside the entries counts (comment lines, `@comment`, `@preamble`): a
    /// value that mentions Better BibTeX, such as a linked file's path, is the user's own.
    private static func zoteroEvidence(file: BibFile, head: String, entries: [Entry]) -> String? {
        let commentLines = percentCommentLines(file.source.bytes)
        if commentLines.contains(where: { $0.hasPrefix("% ? Title looks like it was stored in") || $0.hasPrefix("% == Citekey duplicates in this file:") }) {
            return "Better BibTeX's quality report"
        }
        if file.preambles.contains(where: { $0.text.contains("\\ifdefined\\DeclarePrefChars") }) {
            return "Better BibTeX's @preamble"
        }
        if commentLines.contains(where: { $0.contains("Better BibTeX") }) || file.comments.contains(where: { $0.text.contains("Better BibTeX") }) {
            return "a comment that names Better BibTeX"
        }
        for line in head.split(separator: "\n").prefix(20) where line.hasPrefix("%") && line.contains("Zotero") {
            return "its header, which names Zotero"
        }
        let storage = entries.prefix(200).contains { entry in
            guard let value = entry.raw("file") else { return false }
            return value.range(of: "/Zotero/storage/", options: .caseInsensitive) != nil
                || value.range(of: "\\\\Zotero\\\\storage\\\\", options: .caseInsensitive) != nil
        }
        return storage ? "its linked files in Zotero's storage folder" : nil
    }

    /// The lines of `bytes` that start with `%` (after spaces or tabs), from the `%` on.
    static func percentCommentLines(_ bytes: [UInt8]) -> [String] {
        var lines: [String] = []
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                while index < buffer.count, buffer[index] == UInt8(ascii: " ") || buffer[index] == UInt8(ascii: "\t") { index += 1 }
                // The line's end found by memchr (a loop a byte at a time was most of counting
                // the Unread group on a 26 MB library).
                var end = buffer.count
                if index < buffer.count, let base = buffer.baseAddress,
                   let found = memchr(base + index, Int32(UInt8(ascii: "\n")), buffer.count - index) {
                    end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                }
                if index < end, buffer[index] == UInt8(ascii: "%") {
                    lines.append(String(decoding: UnsafeBufferPointer(rebasing: buffer[index..<end]), as: UTF8.self))
                }
                index = end + 1
            }
        }
        return lines
    }

    /// The separator the file's entries use most in `field` (`; `, `;`, `, ` or `,`), if any.
    static func separator(in entries: [Entry], field: String) -> String? {
        var counts: [String: Int] = [:]
        for entry in entries {
            guard let value = entry.raw(field), let found = separator(in: value) else { continue }
            counts[found, default: 0] += 1
        }
        return counts.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key
    }

    /// The separator one value uses, if it holds more than one item.
    static func separator(in value: String) -> String? {
        for candidate in ["; ", ";", ", ", ","] where value.contains(candidate) {
            if candidate.count == 1, value.contains(candidate + " ") { continue }
            return candidate
        }
        return nil
    }
}
