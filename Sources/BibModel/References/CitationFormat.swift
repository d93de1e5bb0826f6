import Foundation
import PropertyList

extension Entry {
    /// The decoded value of a well-known field, or nil when it is missing or empty.
    public func value(_ field: WellKnownField) -> String? {
        guard let text = decoded(field), !text.isEmpty else { return nil }
        return text
    }
}

extension Entry {
    /// The authors (`author` field), parsed.
    public var authors: NameList { names(in: .author) }

    /// The editors (`editor` field), parsed.
    public var editors: NameList { names(in: .editor) }

    /// The names of a name-list field, parsed from its bytes (no copy of the raw value).
    private func names(in known: WellKnownField) -> NameList {
        guard let field = field(known) else { return NameList(raw: "") }
        return withRawBytes(of: field) { NameList(rawBytes: $0) }
    }

    /// Calls `body` with the names of a name-list field (`.author`, `.editor`) as spans of its raw
    /// bytes, split but not decoded (empty when the field is missing); the list must not
    /// outlive the call.
    public func withNameSpans<Result>(_ known: WellKnownField, _ body: (NameSpanList) -> Result) -> Result {
        guard let field = field(known) else { return body(NameSpanList(rawBytes: UnsafeBufferPointer(start: nil, count: 0))) }
        return withRawBytes(of: field) { body(NameSpanList(rawBytes: $0)) }
    }

    /// Who is shown for the reference: the authors, else the editors.
    public var creators: NameList {
        let authors = self.authors
        return authors.isEmpty ? editors : authors
    }

    /// The short names of `creators` (`creators.names.map(\.shortName)`), each decoded from
    /// its spans of the raw list: no PersonName, and no first name or junior part, is made (the
    /// authors' field group reads them for every reference).
    public var creatorShortNames: [String] {
        let authors: [String]? = withNameSpans(.author) { $0.isEmpty ? nil : $0.shortNames() }
        return authors ?? withNameSpans(.editor) { $0.shortNames() }
    }

    /// The first person of `creators` (`creators.names.first`), found without splitting or
    /// decoding anyone after them: what the sort by author reads, for a list of hundreds of
    /// authors as for one.
    public var firstCreator: PersonName? {
        if let field = field(.author) {
            let (first, named) = withRawBytes(of: field) { bytes -> (PersonName?, Bool) in
                let (spans, hasOthers) = NameParser(bytes: bytes).parseFirst()
                return (spans.map { PersonName(decoding: $0, in: bytes) }, spans != nil || hasOthers)
            }
            // An author list of `others` alone is not empty: the creators are those authors, no one named.
            if named { return first }
        }
        guard let field = field(.editor) else { return nil }
        return withRawBytes(of: field) { bytes in
            NameParser(bytes: bytes).parseFirst().first.map { PersonName(decoding: $0, in: bytes) }
        }
    }
}

extension Entry {
    /// The decoded title, or an empty string.
    public var title: String { value(.title) ?? "" }

    /// The year from `year`, else from the start of a biblatex `date`.
    public var year: String? {
        if let year = value(.year) { return year }
        guard let dateField = field(.date) else { return nil }
        // The common case, `2020-05-17`: four ASCII digits and no combining mark after them.
        let leadingDigits: String? = withRawBytes(of: dateField) { raw in
            guard raw.count >= 4, raw.prefix(4).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  raw.count == 4 || raw[4] < 0x80 else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: raw.prefix(4)), as: UTF8.self)
        }
        if let leadingDigits { return leadingDigits }
        guard let date = value(.date) else { return nil }
        let digits = date.prefix(4)
        return digits.count == 4 && digits.allSatisfy(\.isNumber) ? String(digits) : nil
    }

    /// The arXiv identifier when the entry is an arXiv eprint.
    public var arXivIdentifier: String? {
        guard let eprint = value(.eprint) else { return nil }
        let archive = (value(.archiveprefix) ?? value(.eprinttype) ?? "").lowercased()
        if archive == "arxiv" { return eprint }
        // Old-style identifiers (`math/0211159`) and new ones (`2309.06784`) with no archive named.
        if archive.isEmpty, ArXiv.isIdentifier(eprint) { return eprint }
        return nil
    }

    /// One line that says where the work appeared, by entry type:
    /// `Journal 12(3):45–67, 1984`, `In Booktitle, pp. 1–10, 2001`, `Publisher, 1984`,
    /// `PhD thesis, School, 2015`, `arXiv:2309.06784`.
    public var citation: String {
        var bytes = ByteBuffer(capacity: 128)
        defer { bytes.deallocate() }
        buildCitation(into: &bytes)
        return bytes.string()
    }

    /// Calls `body` with the UTF-8 of `citation`, built in `scratch` (a buffer the caller
    /// reuses, emptied first): no String is made unless the line needs repair.
    public func withCitation<Result>(scratch: inout ByteBuffer, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        scratch.truncate(to: 0)
        buildCitation(into: &scratch)
        let bytes = UnsafeBufferPointer(start: scratch.base, count: scratch.count)
        if UTF8Validation.firstInvalidOffset(in: bytes) == nil { return body(bytes) }
        var text = scratch.string()
        return text.withUTF8(body)
    }

    /// Appends the citation line to `buffer`.
    private func buildCitation(into buffer: inout ByteBuffer) {
        var line = CitationLine(bytes: buffer)
        defer { buffer = line.bytes }
        let year = self.year
        switch type {
        case "article":
            if let arXiv = arXivIdentifier, value(.journal).map({ $0.lowercased().hasPrefix("arxiv") }) ?? true {
                line.add("arXiv:" + arXiv)
                line.add(year)
                break
            }
            line.beginPart()
            let hasJournal = line.append(.journal, of: self) || line.append(.journaltitle, of: self)
            let beforeVolume = line.mark
            if hasJournal { line.append(" ") }
            if line.append(.volume, of: self) {
                let beforeNumber = line.mark
                line.append("(")
                if line.append(.number, of: self) || line.append(.issue, of: self) { line.append(")") } else { line.rollBack(to: beforeNumber) }
                let beforePages = line.mark
                line.append(":")
                if !line.append(.pages, of: self) { line.rollBack(to: beforePages) }
                line.endPart()
            } else {
                line.rollBack(to: beforeVolume)
                line.append(hasJournal ? " (" : "no. ")
                if line.append(.number, of: self) {
                    if hasJournal { line.append(")") }
                } else {
                    line.rollBack(to: beforeVolume)
                }
                line.endPart()
                line.addPages(of: self)
            }
            line.add(year)
        case "inproceedings", "conference", "incollection", "inbook", "inreference", "bookinbook":
            // `In Booktitle`, or the publisher when there is no book title.
            line.beginPart()
            line.append("In ")
            if !(line.append(.booktitle, of: self) || line.append(.maintitle, of: self)) {
                line.rollBack(to: line.partStart)
                line.append(.publisher, of: self)
            }
            line.endPart()
            line.addPages(of: self)
            line.add(year)
        case "book", "mvbook", "booklet", "proceedings", "mvproceedings", "collection", "mvcollection", "reference":
            line.addFirst(of: .publisher, .organization, .howpublished, in: self)
            line.add(year)
        case "phdthesis":
            line.add("PhD thesis")
            line.addFirst(of: .school, .institution, in: self)
            line.add(year)
        case "mastersthesis":
            line.add("Master's thesis")
            line.addFirst(of: .school, .institution, in: self)
            line.add(year)
        case "thesis":
            line.add(value(.type).map(CitationFormat.thesisKind) ?? "Thesis")
            line.addFirst(of: .school, .institution, in: self)
            line.add(year)
        case "techreport", "report":
            line.beginPart()
            if !line.append(.type, of: self) { line.append("Technical report") }
            let beforeNumber = line.mark
            line.append(" ")
            if !line.append(.number, of: self) { line.rollBack(to: beforeNumber) }
            line.endPart()
            line.addFirst(of: .institution, .school, in: self)
            line.add(year)
        case "manual":
            line.addFirst(of: .organization, .publisher, in: self)
            line.beginPart()
            if line.append(.edition, of: self) { line.append(" edition") }
            line.endPart()
            line.add(year)
        case "unpublished":
            line.beginPart()
            if !line.append(.note, of: self) { line.append("Unpublished") }
            line.endPart()
            line.add(year)
        default:
            if let arXiv = arXivIdentifier {
                line.add("arXiv:" + arXiv)
            } else {
                line.addFirst(of: .howpublished, .publisher, .organization, .url, .note, in: self)
            }
            line.add(year)
        }
    }
}

/// A citation line built part by part, straight into bytes: field values are decoded into it,
/// empty and missing parts are left out, the rest joined by `, `.
///
/// It holds no copy of the entry (a copy retains and releases each of its references): the
/// entry is passed to each call that reads a field.
private struct CitationLine {
    /// The line so far, after whatever the buffer held when the line began.
    private(set) var bytes: ByteBuffer
    /// Where the line begins in `bytes`.
    private let lineStart: Int
    /// Where the current part's separator starts, and its text after the separator.
    private var separatorStart: Int
    private(set) var partStart: Int

    init(bytes: ByteBuffer) {
        self.bytes = bytes
        lineStart = bytes.count
        separatorStart = bytes.count
        partStart = bytes.count
    }

    /// Where the line ends now, for `rollBack(to:)`.
    var mark: Int { bytes.count }

    /// Drops what was appended since `mark`.
    mutating func rollBack(to mark: Int) { bytes.truncate(to: mark) }

    /// Starts a part: the separator, taken back by `endPart()` if the part stays empty.
    mutating func beginPart() {
        separatorStart = bytes.count
        if bytes.count > lineStart { bytes.append(", ") }
        partStart = bytes.count
    }

    /// Ends a part; an empty one leaves no trace.
    mutating func endPart() {
        if bytes.count == partStart { bytes.truncate(to: separatorStart) }
    }

    /// Adds a whole part, unless it is missing or empty.
    mutating func add(_ part: String?) {
        guard let part, !part.isEmpty else { return }
        beginPart()
        bytes.append(part)
    }

    /// Adds the first of these fields that has a value, as a part.
    mutating func addFirst(of fields: WellKnownField..., in entry: Entry) {
        beginPart()
        for field in fields where append(field, of: entry) { break }
        endPart()
    }

    /// Adds `pp. 1–10` or `p. 7` from the `pages` field, as a part.
    mutating func addPages(of entry: Entry) {
        beginPart()
        if append(.pages, of: entry) {
            let pages = UnsafeBufferPointer(start: bytes.base + partStart, count: bytes.count - partStart)
            bytes.replace(partStart..<partStart, with: CitationFormat.isPageRange(pages) ? CitationLine.pagesPrefix : CitationLine.pagePrefix)
        }
        endPart()
    }

    private static let pagesPrefix = Array("pp. ".utf8)
    private static let pagePrefix = Array("p. ".utf8)

    /// Appends literal text.
    mutating func append(_ literal: StaticString) {
        bytes.append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// The most of a field's raw value a part takes: a citation is one line, and a field of
    /// megabytes (a blob pasted into `note`) must not be decoded whole for every line shown.
    static let fieldByteLimit = 4_096

    /// Appends the decoded value of a field (of its first `fieldByteLimit` bytes); false (and
    /// nothing appended) when it is missing or decodes to nothing.
    @discardableResult
    mutating func append(_ known: WellKnownField, of entry: Entry) -> Bool {
        guard let field = entry.field(known) else { return false }
        let before = bytes.count
        if field.isVerbatim {
            bytes.append(entry.decodedText(of: field, upTo: CitationLine.fieldByteLimit))
        } else {
            var output = bytes
            entry.withRawBytes(of: field) { LaTeX.appendDecoded(Entry.head(of: $0, upTo: CitationLine.fieldByteLimit), to: &output) }
            bytes = output
        }
        return bytes.count > before
    }
}

/// Small wording rules of citation lines.
enum CitationFormat {
    /// True when decoded pages name a range or a list: `1-10`, `1–10` (en dash), `3, 7`.
    static func isPageRange(_ pages: UnsafeBufferPointer<UInt8>) -> Bool {
        for (index, byte) in pages.enumerated() {
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: ",") { return true }
            // U+2013 EN DASH is E2 80 93 in UTF-8.
            if byte == 0xE2, index + 2 < pages.count, pages[index + 1] == 0x80, pages[index + 2] == 0x93 { return true }
        }
        return false
    }

    static func thesisKind(_ type: String) -> String {
        switch type.lowercased() {
        case "phdthesis", "phd": return "PhD thesis"
        case "mathesis", "mastersthesis", "ma", "masters": return "Master's thesis"
        default: return type
        }
    }
}
