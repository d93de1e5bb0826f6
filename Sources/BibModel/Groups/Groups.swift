import Foundation
import PropertyList

/// A group of references, as BibDesk, JabRef or bibread itself define them.
public struct Group: Sendable {
    /// Where a group comes from (the `kind` of `bibread groups --json`).
    public enum Kind: String, Sendable {
        case builtin, `static`, smart, jabref, field, url, script
    }

    /// How membership is decided.
    enum Rule: Sendable {
        case all
        case keys([String])
        case smart([SmartCondition], matchAll: Bool)
        /// A test made once per evaluation (so it can fetch cached columns once), then run on
        /// each reference with its position.
        case matcher(@Sendable (GroupContext) -> (Entry, Int) -> Bool)
        /// A test made once per evaluation from the context's columns, run on each position
        /// alone: the references themselves are not read again.
        case positional(@Sendable (GroupContext) -> (Int) -> Bool)
        /// References for which `extract` gives `value`, found through an index of all values
        /// built once per context under `index` (field groups, JabRef automatic groups).
        case value(String, index: String, extract: @Sendable (Entry) -> [String])
        case unavailable(String)
        /// JabRef: entries whose `groups` field lists the name, or whose key is listed inline.
        case jabrefStatic(name: String, keys: [String])
        /// JabRef: a field holds a term (as a word, or matching a regular expression).
        case jabrefKeyword(field: String, term: String, caseSensitive: Bool, regex: Bool)
        /// JabRef: a search query.
        case jabrefSearch(JabRefSearch, caseSensitive: Bool, regex: Bool)
        /// Members of every rule (a JabRef group that narrows its parent).
        indirect case intersection([Rule])
        /// Members of any rule (a JabRef group that gathers its children).
        indirect case union([Rule])
    }

    public let name: String
    public let kind: Kind
    public var children: [Group]
    let rule: Rule
    /// The .bib file that keeps the group (BibDesk and JabRef groups); nil for the others.
    public internal(set) var sourceFile: String?

    /// Why the group cannot be shown here (BibDesk URL and script groups), if so.
    public var unavailableReason: String? {
        if case .unavailable(let reason) = rule { return reason }
        return nil
    }

    init(name: String, kind: Kind, rule: Rule, children: [Group] = []) {
        self.name = name
        self.kind = kind
        self.rule = rule
        self.children = children
    }

    /// A BibDesk smart group: the references that meet all of `conditions` (with `matchAll`),
    /// else any of them.
    public static func smart(named name: String, conditions: [SmartCondition], matchAll: Bool) -> Group {
        Group(name: name, kind: .smart, rule: .smart(conditions, matchAll: matchAll))
    }

    /// This group under another name (its members and children unchanged).
    func renamed(_ newName: String) -> Group {
        var group = Group(name: newName, kind: kind, rule: rule, children: children)
        group.sourceFile = sourceFile
        return group
    }

    /// This group, as kept in the .bib file at `path`.
    func kept(in path: String) -> Group {
        var group = self
        group.sourceFile = path
        return group
    }

    /// The positions in `library.entries` of this group's members.
    public func members(in library: Library, context: GroupContext) -> [Int] {
        Group.positions(rule, in: library, context: context)
    }

    private static func positions(_ rule: Rule, in library: Library, context: GroupContext) -> [Int] {
        switch rule {
        case .all:
            return Array(library.entries.indices)
        case .keys(let keys):
            var positions = Set<Int>()
            for key in keys {
                // BibDesk keys are case-sensitive; the index finds candidates ignoring case.
                positions.formUnion(library.positions(ofKey: key).filter { library.entries[$0].key == key })
            }
            return positions.sorted()
        case .smart(let conditions, let matchAll):
            let matchers = conditions.map { $0.matcher(context: context) }
            return library.entries.indices.filter { index in
                let entry = library.entries[index]
                if matchers.isEmpty { return true }
                return matchAll ? matchers.allSatisfy { $0(entry, index) } : matchers.contains { $0(entry, index) }
            }
        case .matcher(let make):
            let test = make(context)
            return EntryScan.filter(library.entries, test)
        case .positional(let make):
            let test = make(context)
            return library.entries.indices.filter(test)
        case .value(let value, let index, let extract):
            return context.valueIndex(index, extract: extract)[value] ?? []
        case .unavailable:
            return []
        case .jabrefStatic(let name, let keys):
            // The `groups` fields are read once per context, into an index by group name
            // (`jabrefStaticScan` is the scan it replaces, which the tests compare it with).
            var members = Set(context.valueIndex("jabref groups", extract: jabrefGroupNames)[name] ?? [])
            for key in Set(keys) {
                members.formUnion(library.positions(ofKey: key).filter { library.entries[$0].key == key })
            }
            return members.sorted()
        case .jabrefKeyword(let field, let term, let caseSensitive, let regex):
            // A group nested in others is evaluated again for each of them: once per context.
            let name = ["jabref keyword", field, term, String(caseSensitive), String(regex)].joined(separator: "\u{0}")
            return context.members(name) {
                let pattern = regex ? term : "(^|[^\\p{L}\\p{N}])" + NSRegularExpression.escapedPattern(for: term) + "($|[^\\p{L}\\p{N}])"
                guard let expression = try? NSRegularExpression(pattern: pattern, options: caseSensitive ? [] : [.caseInsensitive]) else {
                    return []
                }
                // The field's values are read once per context, for every group that asks
                // (reading each reference again for each group, as before, is what the tests compare with).
                let values = context.fieldValues(field)
                return values.indices.filter { index in
                    guard let text = values[index] else { return false }
                    return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                }
            }
        case .jabrefSearch(let query, let caseSensitive, let regex):
            return library.entries.indices.filter { query.matches(library.entries[$0], caseSensitive: caseSensitive, regex: regex) }
        case .intersection(let rules):
            var result: Set<Int>?
            for rule in rules {
                let members = Set(positions(rule, in: library, context: context))
                result = result.map { $0.intersection(members) } ?? members
            }
            return (result ?? []).sorted()
        case .union(let rules):
            var result = Set<Int>()
            for rule in rules { result.formUnion(positions(rule, in: library, context: context)) }
            return result.sorted()
        }
    }

    /// The group names a JabRef `groups` field lists (each as the static group rule compares it).
    @Sendable static func jabrefGroupNames(_ entry: Entry) -> [String] {
        (entry.value(named: "groups") ?? "").split(separator: ",").map(GroupCatalog.trimmingWhitespace)
    }

    /// The members of a JabRef static group found by reading every reference's `groups` field
    /// (what the rule did before its index; kept for the tests that compare the two).
    static func jabrefStaticScan(name: String, keys: [String], in library: Library) -> [Int] {
        let inline = Set(keys)
        return library.entries.indices.filter { index in
            let entry = library.entries[index]
            if inline.contains(entry.key) { return true }
            return (entry.value(named: "groups") ?? "").split(separator: ",")
                .contains { $0.trimmingCharacters(in: .whitespaces) == name }
        }
    }

    /// The group an identifier names: a built-in group, or the group at its path (searched as
    /// `find(_:in:)` does for a path written as text).
    public static func find(_ id: GroupID, in groups: [Group]) -> Group? {
        switch id {
        case .builtIn(let builtIn):
            return groups.first { $0.kind == .builtin && $0.name == builtIn.name }
        case .path:
            return find(id.path, in: groups)
        }
    }

    /// The group at a path of names written as text (`Parent/Child`, any case), searched
    /// depth-first.
    public static func find(_ path: String, in groups: [Group]) -> Group? {
        let parts = path.split(separator: "/", maxSplits: 1).map(String.init)
        guard let first = parts.first else { return nil }
        for group in groups where group.name == first || group.name.caseInsensitiveCompare(first) == .orderedSame {
            if parts.count == 1 { return group }
            if let found = find(parts[1], in: group.children) { return found }
        }
        // A name deeper in the tree works without its parents (the first such group).
        if parts.count == 1 {
            for group in groups {
                if let found = find(path, in: group.children) { return found }
            }
        }
        return nil
    }
}

/// What group evaluation needs besides the entries: the time (injectable for tests), and the
/// facts about references it works out once and keeps (which fields hold yes/no values, decoded
/// columns, value indexes).
public struct GroupContext: Sendable {
    public let now: Date
    public let calendar: Calendar
    /// Where linked files are (the built-in groups With PDF, On the remote only, Without PDF).
    public let locator: any LinkedFileLocating
    private let entries: [Entry]
    /// The library's files (whose conventions say what is read).
    private let files: [BibFile]
    private let columns: ColumnCache
    /// How many threads its columns and counts may use (nil: one a core).
    public let threads: Int?

    /// A context for `library` at `now`, in `timeZone`; `locator` says where linked files are.
    public init(library: Library, locator: any LinkedFileLocating, now: Date = Date(), timeZone: TimeZone = .current) {
        self.init(library: library, locator: locator, now: now, timeZone: timeZone, threads: nil)
    }

    /// A context whose columns and counts are worked out on at most `threads` threads (nil: one
    /// a core; the reader, whose other work keeps the cores busy, gives 1).
    public init(library: Library, locator: any LinkedFileLocating, now: Date = Date(), timeZone: TimeZone = .current,
                threads: Int?) {
        self.now = now
        self.threads = threads
        self.locator = locator
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
        entries = library.entries
        files = library.files
        columns = ColumnCache()
    }

    /// This context, sharing its columns and indexes, with its work done on the calling thread
    /// (for jobs that already run one a core: a scan split again would be merged for nothing).
    func onCallingThread() -> GroupContext {
        GroupContext(sharing: self, threads: 1)
    }

    private init(sharing other: GroupContext, threads: Int?) {
        now = other.now
        calendar = other.calendar
        locator = other.locator
        entries = other.entries
        files = other.files
        columns = other.columns
        self.threads = threads
    }

    /// True for `read` and every field whose values are all yes/no words (worked out once, when
    /// a smart condition first asks).
    func isBoolean(_ field: String) -> Bool {
        columns.remember(\.fieldSets, "boolean fields") { GroupContext.booleanFields(in: entries) }.contains(field)
    }

    /// A number per reference (in library order), worked out for all of them the first time it
    /// is asked for under `name` and remembered for every later evaluation with this context.
    func numbers(_ name: String, compute: @escaping @Sendable (Entry) -> Double) -> [Double] {
        columns.remember(\.numbers, name) { EntryScan.map(entries, threads: threads, compute) }
    }

    /// Text per reference, worked out once for all of them (see `numbers`).
    func texts(_ name: String, compute: @escaping @Sendable (Entry) -> String) -> [String] {
        columns.remember(\.texts, name) { EntryScan.map(entries, threads: threads, compute) }
    }

    /// UTF-8 bytes per reference, worked out once for all of them (see `numbers`).
    func bytes(_ name: String, compute: @escaping @Sendable (Entry) -> [UInt8]) -> [[UInt8]] {
        columns.remember(\.bytes, name) { EntryScan.map(entries, threads: threads, compute) }
    }

    /// For each value `extract` gives, the positions of the references that have it (built once).
    func valueIndex(_ name: String, extract: @escaping @Sendable (Entry) -> [String]) -> [String: [Int]] {
        columns.remember(\.indexes, name) { EntryScan.valueIndex(entries, threads: threads, extract: extract) }
    }

    /// Each reference's value of `field` (`Entry.value(named:)`), read once for all of them.
    func fieldValues(_ field: String) -> [String?] {
        columns.remember(\.fieldValues, field) { EntryScan.map(entries, threads: threads) { $0.value(named: field) } }
    }

    /// How many references there are.
    var referenceCount: Int { entries.count }

    /// For each value `extract` gives, the positions in `entries` of those that have it, in order.
    static func valueIndex(of entries: [Entry], extract: @Sendable (Entry) -> [String]) -> [String: [Int]] {
        EntryScan.valueIndex(entries, extract: extract)
    }

    /// The members of a rule worked out once for this context under `name` (a rule nested in
    /// several groups is asked for again by each of them).
    func members(_ name: String, compute: () -> [Int]) -> [Int] {
        columns.remember(\.members, name, compute: compute)
    }

    /// Where each reference's PDFs are (the locator says, once): `PDFPlace` raw values.
    var pdfPlaces: [Double] {
        numbers("pdf") { [locator] entry in Double(locator.place(of: entry).rawValue) }
    }

    /// Whether each reference is read, in its file's conventions (BibDesk's `Read` flag,
    /// JabRef's `readstatus = read`).
    var readFlags: [Double] {
        columns.remember(\.numbers, "read") {
            let conventions = LibraryConventions.byPath(files: files, entries: entries)
            return EntryScan.map(entries, threads: threads) { entry in
                let isRead = conventions[entry.source.path]?.isRead(entry) ?? SmartCondition.isTrue(entry.value(named: "read") ?? "")
                return isRead ? 1 : 0
            }
        }
    }

    /// `read`, and every field whose values are all yes/no words.
    private static func booleanFields(in entries: [Entry]) -> Set<String> {
        let vocabulary: Set<String> = ["1", "0", "y", "n", "yes", "no", "true", "false", "oui", "non"]
        var candidates: [String: Bool] = [:]
        for entry in entries {
            for field in entry.fields where !field.isVerbatim {
                let name = entry.name(of: field)
                if candidates[name] == false { continue }
                let value = entry.rawText(of: field).trimmingCharacters(in: .whitespaces).lowercased()
                candidates[name] = vocabulary.contains(value)
            }
        }
        return Set(candidates.filter(\.value).keys).union(["read"])
    }
}

/// Every group of a library: built-in ones, field groups, and those read from the .bib.
public enum GroupCatalog {
    /// The group tree, in the order `bibread groups` shows it; `synced`: the library is a synced
    /// remote's copy (it has the group On the remote only).
    public static func groups(of library: Library, synced: Bool) -> [Group] {
        savedGroups(of: library, synced: synced) + fieldGroups(of: library)
    }

    /// The built-in groups and those the .bib files keep (BibDesk, JabRef): cheap to read, so
    /// a screen can show them at once while `fieldGroups(of:)` reads every reference.
    /// `synced`: the library is a synced remote's copy (it has the group On the remote only).
    public static func savedGroups(of library: Library, synced: Bool) -> [Group] {
        builtInGroups(synced: synced) + distinctlyNamed(BibDeskGroups.groups(in: library) + JabRefGroups.groups(in: library))
    }

    /// The groups, each top-level name once: a group named as one kept by another file before
    /// it gets that file's name after its own (`To read (other.bib)`), so that a path (`--group`,
    /// the reader's groups) names one group.
    static func distinctlyNamed(_ groups: [Group]) -> [Group] {
        var firstFile: [String: String?] = [:]
        return groups.map { group in
            guard let earlier = firstFile[group.name] else {
                firstFile[group.name] = group.sourceFile
                return group
            }
            guard earlier != group.sourceFile, let file = group.sourceFile else { return group }
            return group.renamed("\(group.name) (\((file as NSString).lastPathComponent))")
        }
    }

    /// Warnings about groups the .bib files keep but that could not be read (a damaged BibDesk
    /// or JabRef group comment gives no groups, or fewer, and one of these at the comment).
    public static func diagnostics(of library: Library) -> [Diagnostic] {
        BibDeskGroups.diagnostics(in: library) + JabRefGroups.diagnostics(in: library)
    }

    /// All, With PDF (on this machine), On the remote only (for a synced library), Without PDF
    /// (anywhere), Unread, Recently added.
    static func builtInGroups(synced: Bool = false) -> [Group] {
        func placed(_ place: PDFPlace) -> Group.Rule {
            .positional { context in
                let places = context.pdfPlaces
                return { position in places[position] == Double(place.rawValue) }
            }
        }
        func rule(_ group: BuiltInGroup) -> Group.Rule? {
            switch group {
            case .all: return .all
            case .withPDF: return placed(.here)
            case .remoteOnly: return synced ? placed(.remoteOnly) : nil
            case .withoutPDF: return placed(.nowhere)
            case .unread:
                return .positional { context in
                    let flags = context.readFlags
                    return { position in flags[position] != 1 }
                }
            case .recentlyAdded: return .smart([SmartCondition(key: "Date-Added", comparison: 5, value: "30 1")], matchAll: true)
            case .recentlyRead, .fromLink, .conflicts: return nil
            }
        }
        return BuiltInGroup.allCases.compactMap { group in
            rule(group).map { Group(name: group.name, kind: .builtin, rule: $0) }
        }
    }

    /// The field groups' titles and fields, in the tree's order.
    static let fieldGroupFields = [("Authors", "author"), ("Keywords", "keywords"), ("Years", "year"), ("Journals", "journal"), ("Types", "type")]

    /// Browsable groups by author, keyword, year, journal and type: one child per value. The
    /// values are read once, into `context`'s index of each field (which counting the groups
    /// then uses); without a context, into indexes made for this call.
    public static func fieldGroups(of library: Library, context: GroupContext? = nil) -> [Group] {
        let fields = fieldGroupFields
        guard context?.threads != 1 else {
            return fields.map { fieldGroup($0.0, field: $0.1, in: library, context: context) }
        }
        // Each field's index read on every core, one field after another (the authors alone
        // took as long as the other four: a field a thread kept one core waiting), then the
        // fields' names sorted at once.
        if let context {
            for (_, field) in fields { _ = context.valueIndex("field " + field, extract: fieldExtract(field)) }
        }
        let made = LockedValue([Group?](repeating: nil, count: fields.count))
        DispatchQueue.concurrentPerform(iterations: fields.count) { number in
            let group = fieldGroup(fields[number].0, field: fields[number].1, in: library, context: context)
            made.withLock { $0[number] = group }
        }
        return made.withLock { $0 }.compactMap { $0 }
    }

    /// What a field group of `field` reads from each reference.
    static func fieldExtract(_ field: String) -> @Sendable (Entry) -> [String] {
        { values(of: $0, field: field) }
    }

    /// The field group of `field`, under `title`: one child per value.
    static func fieldGroup(_ title: String, field: String, in library: Library, context: GroupContext?) -> Group {
        let extract = fieldExtract(field)
        let indexName = "field " + field
        let index = context?.valueIndex(indexName, extract: extract) ?? GroupContext.valueIndex(of: library.entries, extract: extract)
        let children = NaturalOrder.sorted(Array(index.keys))
            .map { Group(name: $0, kind: .field, rule: .value($0, index: indexName, extract: extract)) }
        // A reference with a value of the field is in the index under it.
        return Group(name: title, kind: .field, rule: .positional { context in
            var hasValue = [Bool](repeating: false, count: context.referenceCount)
            for positions in context.valueIndex(indexName, extract: extract).values {
                for position in positions { hasValue[position] = true }
            }
            return { position in hasValue[position] }
        }, children: children)
    }

    /// `part.trimmingCharacters(in: .whitespaces)` without Foundation's bridging (a tenth of
    /// reading the keywords): the scalars of `.whitespaces` cut from either end, as Foundation
    /// cuts them (`GroupValueFastPathTests` compares the two, and the scalars one by one).
    @Sendable static func trimmingWhitespace(_ part: Substring) -> String {
        let scalars = part.unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, isWhitespace(scalars[start]) { start = scalars.index(after: start) }
        while start < end {
            let before = scalars.index(before: end)
            guard isWhitespace(scalars[before]) else { break }
            end = before
        }
        return String(Substring(scalars[start..<end]))
    }

    /// Whether `CharacterSet.whitespaces` holds the scalar: tab, the space separators (Zs) and,
    /// in swift-corelibs-foundation, the zero width space.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// The values an entry contributes to a field group.
    static func values(of entry: Entry, field: String) -> [String] {
        switch field {
        case "author":
            return entry.creatorShortNames
        case "keywords":
            return (entry.value(named: "keywords") ?? "").split(whereSeparator: { $0 == "," || $0 == ";" })
                .map(trimmingWhitespace).filter { !$0.isEmpty }
        case "year":
            return entry.year.map { [$0] } ?? []
        case "journal":
            // Found by the well-known fields' bits, not by comparing every field's name.
            return (entry.decoded(.journal) ?? entry.decoded(.journaltitle)).map { [$0] } ?? []
        default:
            return entry.value(named: field).map { [$0] } ?? []
        }
    }
}

/// BibDesk's groups, kept in `@comment{BibDesk Static Groups{<plist>}}` and its siblings.
///
/// The XML property lists are read by `PropertyList`'s hostile-input-safe reader (never
/// Foundation's, which recurses without limit): a comment that cannot be read gives no groups
/// and a warning, and the rest of the library is unaffected.
enum BibDeskGroups {
    /// The comments that hold groups: their opening and the kind of group in them.
    private static let comments: [(opening: String, kind: Group.Kind)] = [
        ("BibDesk Static Groups{", .static), ("BibDesk Smart Groups{", .smart),
        ("BibDesk URL Groups{", .url), ("BibDesk Script Groups{", .script),
    ]

    /// Group plists are a few levels deep; anything deeper is not BibDesk's.
    private static let limits = PropertyListLimits(maxDepth: 32)

    static func groups(in library: Library) -> [Group] {
        read(library).groups
    }

    /// A warning for each group comment whose property list could not be read.
    static func diagnostics(in library: Library) -> [Diagnostic] {
        read(library).problems
    }

    private static func read(_ library: Library) -> (groups: [Group], problems: [Diagnostic]) {
        var groups: [Group] = []
        var problems: [Diagnostic] = []
        for file in library.files {
            for comment in file.comments {
                let text = comment.text
                for (opening, kind) in comments where text.hasPrefix(opening) {
                    let plist = String(text.dropFirst(opening.count).dropLast())
                    switch parse(plist, kind: kind) {
                    case .success(let found):
                        groups += found.map { $0.kept(in: file.source.path) }
                    case .failure(let problem):
                        let place = String(opening.dropLast())
                        problems.append(Diagnostic(.warning, source: file.source, offset: comment.offset,
                                                   message: "\(place) ignored: \(problem.message)"))
                    }
                }
            }
        }
        return (groups, problems)
    }

    /// Why a group comment gave no groups.
    struct Problem: Error {
        let message: String
    }

    static func parse(_ plist: String, kind: Group.Kind) -> Result<[Group], Problem> {
        let value: PropertyListValue
        do {
            value = try XMLPropertyList.parse(Array(plist.utf8), limits: limits)
        } catch {
            return .failure(Problem(message: error.description))
        }
        guard let items = value.array else {
            return .failure(Problem(message: "expected an array of groups, found \(value.summary)"))
        }
        return .success(items.compactMap(\.dictionary).map { group(from: $0, kind: kind) })
    }

    private static func group(from dictionary: PropertyListDictionary, kind: Group.Kind) -> Group {
        let name = unescape(dictionary["group name"]?.string ?? "")
        switch kind {
        case .static:
            let keys = unescape(dictionary["keys"]?.string ?? "").split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            return Group(name: name, kind: kind, rule: .keys(keys))
        case .smart:
            let conditions = (dictionary["conditions"]?.array ?? []).compactMap(\.dictionary).map { condition in
                SmartCondition(key: unescape(condition["key"]?.string ?? ""),
                               comparison: integer(condition["comparison"]),
                               value: unescape(condition["value"]?.string ?? ""))
            }
            return Group(name: name, kind: kind, rule: .smart(conditions, matchAll: integer(dictionary["conjunction"]) == 0))
        case .url:
            return Group(name: name, kind: kind, rule: .unavailable("BibDesk URL groups fetch a remote .bib; not available here"))
        default:
            return Group(name: name, kind: kind, rule: .unavailable("BibDesk script groups run AppleScript; not available here"))
        }
    }

    /// A number BibDesk wrote as an integer, a real, a boolean or a string; 0 for anything else.
    private static func integer(_ value: PropertyListValue?) -> Int {
        switch value {
        case .integer(let number)?: return Int(clamping: number)
        case .real(let number)? where number.isFinite && abs(number) < 1e18: return Int(number)
        case .boolean(let flag)?: return flag ? 1 : 0
        case .string(let text)?: return Int(text) ?? 0
        default: return 0
        }
    }

    /// BibDesk writes `%7B %7D %3C %3E %40 %25` for `{ } < > @ %` in names and values.
    static func unescape(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var result = text
        for (code, character) in [("%7B", "{"), ("%7D", "}"), ("%3C", "<"), ("%3E", ">"), ("%40", "@"), ("%25", "%")] {
            result = result.replacingOccurrences(of: code, with: character, options: .caseInsensitive)
        }
        return result
    }
}

/// Columns of facts about references that cost something to work out (values decoded and
/// lowered, dates parsed, files checked on disk), computed for the whole library the first time
/// they are needed and kept for the life of a `GroupContext`.
///
/// Each kind of column has a table of its own, so that one name asked for as numbers and as text
/// (`numbers("read")`, `texts("read")`) gives two columns, never one that replaces the other.
final class ColumnCache: @unchecked Sendable {
    var numbers: [String: [Double]] = [:]
    var texts: [String: [String]] = [:]
    var bytes: [String: [[UInt8]]] = [:]
    /// Fields' values, one per reference (nil where it has none).
    var fieldValues: [String: [String?]] = [:]
    /// Value indexes: for each value, the positions of the references that have it.
    var indexes: [String: [String: [Int]]] = [:]
    /// The members of rules, by a name that says the rule.
    var members: [String: [Int]] = [:]
    /// Sets of field names (the yes/no fields).
    var fieldSets: [String: Set<String>] = [:]
    private let lock = NSLock()
    /// One lock per column being worked out, so that threads counting different groups work
    /// out different columns at once, and one column is worked out once.
    private var computing: [ColumnName: NSLock] = [:]

    private struct ColumnName: Hashable {
        let table: AnyKeyPath
        let name: String
    }

    /// The value kept under `name` in `table`, worked out by `compute` the first time (by one
    /// thread: another that asks meanwhile waits for it).
    func remember<Value>(_ table: ReferenceWritableKeyPath<ColumnCache, [String: Value]>, _ name: String,
                         compute: () -> Value) -> Value {
        let columnLock: NSLock = lock.withLock {
            let key = ColumnName(table: table, name: name)
            if let existing = computing[key] { return existing }
            let made = NSLock()
            computing[key] = made
            return made
        }
        return columnLock.withLock {
            if let known = lock.withLock({ self[keyPath: table][name] }) { return known }
            let value = compute()
            lock.withLock { self[keyPath: table][name] = value }
            return value
        }
    }
}

/// The order people expect in a list of names, keywords or years: case and accents ignored,
/// digits compared as numbers (`Vol 2` before `Vol 10`). Each key is worked out once; Foundation's
/// `localizedStandardCompare` built a locale for every comparison (60% of loading a small
/// library went into sorting its field groups).
enum NaturalOrder {
    static func sorted(_ values: [String]) -> [String] {
        // Two ASCII keys are compared byte by byte, which is how Strings compare them (ASCII
        // is its own normal form); any other pair as Strings. Comparing Strings twice in each
        // comparison (`!=`, then `<`) was half of sorting the field groups' names.
        values.map { value in
            let bytes = asciiKeyBytes(for: value)
            return (bytes: bytes, key: bytes.map { String(decoding: $0, as: UTF8.self) } ?? foldedKey(for: value), value: value)
        }
        .sorted { left, right in
            if let leftBytes = left.bytes, let rightBytes = right.bytes {
                let order = compareBytes(leftBytes, rightBytes)
                return order != 0 ? order < 0 : left.value < right.value
            }
            return left.key != right.key ? left.key < right.key : left.value < right.value
        }
        .map(\.value)
    }

    /// The names in the order `sorted(_:)` gives, worked out by comparing the keys as Strings
    /// (what the tests compare it with).
    static func sortedComparingStrings(_ values: [String]) -> [String] {
        values.map { (key: key(for: $0), value: $0) }
            .sorted { $0.key != $1.key ? $0.key < $1.key : $0.value < $1.value }
            .map(\.value)
    }

    /// -1, 0 or 1 as `left` comes before, is, or comes after `right`, byte by byte (a prefix first).
    private static func compareBytes(_ left: [UInt8], _ right: [UInt8]) -> Int {
        left.withUnsafeBufferPointer { left in
            right.withUnsafeBufferPointer { right in
                for index in 0..<min(left.count, right.count) where left[index] != right[index] {
                    return left[index] < right[index] ? -1 : 1
                }
                return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
            }
        }
    }

    /// The folded text with every run of digits padded to 20 digits, so that plain string order
    /// compares numbers by value. ASCII text (nearly every name and keyword) is keyed byte by
    /// byte, as `foldedKey(for:)` keys it character by character (the tests compare the two).
    static func key(for text: String) -> String {
        asciiKeyBytes(for: text).map { String(decoding: $0, as: UTF8.self) } ?? foldedKey(for: text)
    }

    /// The bytes of `key(for:)` of ASCII text; nil for any other text.
    static func asciiKeyBytes(for text: String) -> [UInt8]? {
        var isASCII = true
        var count = 0
        for byte in text.utf8 {
            if byte >= 0x80 { isASCII = false; break }
            count += 1
        }
        guard isASCII else { return nil }
        var key: [UInt8] = []
        key.reserveCapacity(count + 20)
        // Where the current run of digits starts in `key`, after its leading zeros (nil: none).
        var digitsStart: Int?
        var zeros = 0
        func flush() {
            guard let start = digitsStart else {
                if zeros > 0 { key.append(contentsOf: repeatElement(0x30, count: 20)) }
                zeros = 0
                return
            }
            let length = key.count - start
            if length < 20 { key.insert(contentsOf: repeatElement(0x30, count: 20 - length), at: start) }
            digitsStart = nil
            zeros = 0
        }
        for byte in text.utf8 {
            if byte >= 0x30 && byte <= 0x39 {
                if digitsStart == nil && byte == 0x30 {
                    zeros += 1
                } else {
                    if digitsStart == nil { digitsStart = key.count }
                    key.append(byte)
                }
            } else {
                if digitsStart != nil || zeros > 0 { flush() }
                key.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
            }
        }
        if digitsStart != nil || zeros > 0 { flush() }
        return key
    }

    /// `key(for:)` worked out character by character on the folded text (any text).
    static func foldedKey(for text: String) -> String {
        var key = ""
        var digits = ""
        func flush() {
            guard !digits.isEmpty else { return }
            let trimmed = digits.drop { $0 == "0" }
            key += String(repeating: "0", count: max(0, 20 - trimmed.count)) + trimmed
            digits = ""
        }
        for character in Folding.fold(text) {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else {
                flush()
                key.append(character)
            }
        }
        flush()
        return key
    }
}
