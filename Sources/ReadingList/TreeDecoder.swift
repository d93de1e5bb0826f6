import Foundation
import PropertyList

/// Turns a plist value into a `ReadingList`, checking the shape of every node and collecting
/// every error with its path (`Children[2].Reference.Page`) rather than stopping at the first.
/// Limits on nesting and node count stop the walk at once with `.limitExceeded`.
struct TreeDecoder {
    private let limits: ReadingListLimits
    private var problems: [ListProblem] = []
    private var nodeCount = 0
    private var includesPageNotes = false
    private var ignoredNotes: [String] = []

    private init(limits: ReadingListLimits) {
        self.limits = limits
    }

    /// The list in `value`, with any warnings; throws `.invalid` with every error found.
    static func decode(_ value: PropertyListValue, limits: ReadingListLimits) throws -> (ReadingList, [ListProblem]) {
        var decoder = TreeDecoder(limits: limits)
        let list = try decoder.decodeRoot(value)
        if !decoder.ignoredNotes.isEmpty {
            let count = decoder.ignoredNotes.count
            let which = count == 1
                ? "at \(decoder.ignoredNotes[0])"
                : "\(count) bookmarks have notes, the first at \(decoder.ignoredNotes[0])"
            decoder.problems.append(ListProblem(.warning, path: "",
                                                message: "Notes ignored: the root does not set IncludesPageNotes = YES (\(which))"))
        }
        let errors = decoder.problems.filter { $0.severity == .error }
        guard errors.isEmpty, let list else { throw ReadingListError.invalid(errors) }
        return (list, decoder.problems.filter { $0.severity == .warning })
    }

    // MARK: - Problems and paths

    private mutating func error(_ path: String, _ message: String) {
        problems.append(ListProblem(.error, path: path, message: message))
    }

    private static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    // MARK: - Nodes

    private mutating func decodeRoot(_ value: PropertyListValue) throws -> ReadingList? {
        guard case .dictionary(let root) = value else {
            error("", "expected a dictionary, found \(value.summary)")
            return nil
        }
        switch root["Class"] {
        case nil:
            if root["Children"] == nil { error("Class", "missing (expected Folder)") }
        case .string("Folder"):
            break
        case let other?:
            error("Class", "expected Folder, found \(other.summary)")
        }
        let name = optionalString(root["Name"], path: "Name") ?? ""
        if let flag = root["IncludesPageNotes"] {
            if let included = Self.flag(flag) {
                includesPageNotes = included
            } else {
                error("IncludesPageNotes", "expected YES or NO, found \(flag.summary)")
            }
        }
        let children = try decodeChildren(of: root, path: "", depth: 0)
        return ReadingList(root: BookmarkFolder(name: name, children: children), includesPageNotes: includesPageNotes)
    }

    /// A folder's `Children` (missing means none); `depth` is the folder's nesting level.
    private mutating func decodeChildren(of folder: PropertyListDictionary, path: String, depth: Int) throws -> [BookmarkNode] {
        guard let value = folder["Children"] else { return [] }
        let childrenPath = Self.join(path, "Children")
        guard case .array(let items) = value else {
            error(childrenPath, "expected an array, found \(value.summary)")
            return []
        }
        var nodes: [BookmarkNode] = []
        nodes.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            nodeCount += 1
            if nodeCount > limits.maxNodes {
                throw ReadingListError.limitExceeded("the list has more than \(limits.maxNodes) nodes")
            }
            if let node = try decodeNode(item, path: "\(childrenPath)[\(index)]", depth: depth + 1) {
                nodes.append(node)
            }
        }
        return nodes
    }

    /// One node at `path`, nested `depth` folders deep; nil when it has errors.
    private mutating func decodeNode(_ value: PropertyListValue, path: String, depth: Int) throws -> BookmarkNode? {
        guard case .dictionary(let node) = value else {
            error(path, "expected a dictionary, found \(value.summary)")
            return nil
        }
        let errorsBefore = problems.count
        var kind: String?
        switch node["Class"] {
        case nil:
            error(Self.join(path, "Class"), "missing (expected Folder, Bookmark or Notemark)")
        case .string(let name) where ["Folder", "Bookmark", "Notemark"].contains(name):
            kind = name
        case let other?:
            error(Self.join(path, "Class"), "expected Folder, Bookmark or Notemark, found \(other.summary)")
        }
        let name = requiredString(node["Name"], path: Self.join(path, "Name"))
        let result: BookmarkNode?
        switch kind {
        case "Folder":
            if depth > limits.maxDepth {
                throw ReadingListError.limitExceeded("the list nests folders deeper than \(limits.maxDepth) levels")
            }
            let children = try decodeChildren(of: node, path: path, depth: depth)
            result = .folder(BookmarkFolder(name: name ?? "", children: children))
        case "Notemark":
            let text = requiredString(node["Text"], path: Self.join(path, "Text"))
            result = .notemark(Notemark(name: name ?? "", text: text ?? ""))
        case "Bookmark":
            result = decodeBookmark(node, name: name ?? "", path: path).map { .bookmark($0) }
        default:
            result = nil
        }
        return problems.count == errorsBefore ? result : nil
    }

    private mutating func decodeBookmark(_ node: PropertyListDictionary, name: String, path: String) -> Bookmark? {
        let referencePath = Self.join(path, "Reference")
        var reference: PageReference?
        switch node["Reference"] {
        case nil:
            error(referencePath, "missing (expected a dictionary with CiteKey and Page)")
        case .dictionary(let dictionary)?:
            reference = decodeReference(dictionary, path: referencePath)
        case let other?:
            error(referencePath, "expected a dictionary, found \(other.summary)")
        }
        var notes: [String] = []
        if let value = node["Notes"] {
            let notesPath = Self.join(path, "Notes")
            if includesPageNotes {
                notes = decodeNotes(value, path: notesPath, pages: reference?.pages)
            } else {
                ignoredNotes.append(notesPath)
            }
        }
        return reference.map { Bookmark(name: name, reference: $0, notes: notes) }
    }

    private mutating func decodeReference(_ reference: PropertyListDictionary, path: String) -> PageReference? {
        let errorsBefore = problems.count
        if let kind = reference["Class"], kind != .string("Reference") {
            error(Self.join(path, "Class"), "expected Reference, found \(kind.summary)")
        }
        let citeKeyPath = Self.join(path, "CiteKey")
        var citeKey = ""
        switch reference["CiteKey"] {
        case nil:
            error(citeKeyPath, "missing (expected a cite key)")
        case .string(let text)? where !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty:
            citeKey = text
        case let other?:
            error(citeKeyPath, "expected a cite key, found \(other.summary)")
        }
        let library = optionalString(reference["Library"], path: Self.join(path, "Library"))
        let pagePath = Self.join(path, "Page")
        var page: Int?
        if let value = reference["Page"] {
            page = pageNumber(value, path: pagePath, minimum: 1, minimumLabel: "1")
        } else {
            error(pagePath, "missing (expected a number ≥ 1)")
        }
        var lastPage: Int?
        if let value = reference["LastPage"] {
            let lastPagePath = Self.join(path, "LastPage")
            let minimum = page ?? 1
            lastPage = pageNumber(value, path: lastPagePath, minimum: minimum,
                                  minimumLabel: page.map { "Page (\($0))" } ?? "1")
            if let page, let last = lastPage, last - page + 1 > limits.maxPageSpan {
                error(lastPagePath, "the range \(page)–\(last) spans \(last - page + 1) pages, more than the limit of \(limits.maxPageSpan)")
                lastPage = nil
            }
        }
        guard problems.count == errorsBefore, let page else { return nil }
        return PageReference(citeKey: citeKey, library: library, page: page, lastPage: lastPage)
    }

    /// A page number ≥ `minimum` and ≤ `maxPage`, or nil after recording the error.
    private mutating func pageNumber(_ value: PropertyListValue, path: String, minimum: Int, minimumLabel: String) -> Int? {
        guard let number = Self.integer(value), number >= Int64(minimum) else {
            error(path, "expected a number ≥ \(minimumLabel), found \(value.summary)")
            return nil
        }
        guard number <= Int64(limits.maxPage) else {
            error(path, "page \(number) is past the limit of \(limits.maxPage)")
            return nil
        }
        return Int(number)
    }

    /// The page notes: an array of strings, no longer than the bookmark's pages.
    private mutating func decodeNotes(_ value: PropertyListValue, path: String, pages: ClosedRange<Int>?) -> [String] {
        guard case .array(let items) = value else {
            error(path, "expected an array of strings, found \(value.summary)")
            return []
        }
        if let pages, items.count > pages.count {
            let label = pages.count == 1 ? "1 page (p. \(pages.lowerBound))" : "\(pages.count) pages (p. \(pages.lowerBound)–\(pages.upperBound))"
            error(path, "\(items.count) notes for \(label)")
            return []
        }
        if items.count > limits.maxPageSpan {
            error(path, "\(items.count) notes, more than the limit of \(limits.maxPageSpan)")
            return []
        }
        var notes: [String] = []
        for (index, item) in items.enumerated() {
            if case .string(let text) = item {
                notes.append(text)
            } else {
                error("\(path)[\(index)]", "expected a string, found \(item.summary)")
            }
        }
        return notes
    }

    // MARK: - Scalars

    /// A required string; records "missing" or the wrong type.
    private mutating func requiredString(_ value: PropertyListValue?, path: String) -> String? {
        guard let value else {
            error(path, "missing (expected a string)")
            return nil
        }
        return optionalString(value, path: path)
    }

    /// An optional string; records the wrong type.
    private mutating func optionalString(_ value: PropertyListValue?, path: String) -> String? {
        switch value {
        case nil: return nil
        case .string(let text)?: return text
        case let other?:
            error(path, "expected a string, found \(other.summary)")
            return nil
        }
    }

    /// A whole number from an integer, an integral real, or a string holding one ("12", " 12 ").
    static func integer(_ value: PropertyListValue) -> Int64? {
        switch value {
        case .integer(let number):
            return number
        case .real(let number):
            guard number.isFinite, number.rounded() == number, abs(number) < 9.0e18 else { return nil }
            return Int64(number)
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if let number = Int64(trimmed) { return number }
            guard !trimmed.isEmpty, trimmed.allSatisfy({ "0123456789.+-eE".contains($0) }),
                  let number = Double(trimmed) else { return nil }
            return integer(.real(number))
        default:
            return nil
        }
    }

    /// `IncludesPageNotes`: a boolean, or YES/NO, true/false, 1/0 in any case.
    static func flag(_ value: PropertyListValue) -> Bool? {
        switch value {
        case .boolean(let flag):
            return flag
        case .integer(let number) where number == 0 || number == 1:
            return number == 1
        case .string(let text):
            switch text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() {
            case "yes", "true", "1": return true
            case "no", "false", "0": return false
            default: return nil
            }
        default:
            return nil
        }
    }
}
