import Foundation

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

    /// Who is shown for the reference: the authors, else the editors.
    public var creators: NameList {
        let authors = self.authors
        return authors.isEmpty ? editors : authors
    }
}

extension Entry {
    /// The decoded title, or an empty string.
    public var title: String { value(.title) ?? "" }

    /// The year from `year`, else from the start of a biblatex `date`.
    public var year: String? {
        if let year = value(.year) { return year }
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
        if archive.isEmpty, eprint.range(of: #"^(\d{4}\.\d{4,5}|[a-z\-]+(\.[A-Z]{2})?/\d{7})(v\d+)?$"#, options: .regularExpression) != nil {
            return eprint
        }
        return nil
    }

    /// One line that says where the work appeared, by entry type:
    /// `Journal 12(3):45–67, 1984`, `In Booktitle, pp. 1–10, 2001`, `Publisher, 1984`,
    /// `PhD thesis, School, 2015`, `arXiv:2309.06784`.
    public var citation: String {
        let year = self.year
        var line = CitationLine()
        switch type {
        case "article":
            let journalField = value(.journal)
            if let arXiv = arXivIdentifier, journalField == nil || journalField?.lowercased().hasPrefix("arxiv") == true {
                line.add("arXiv:" + arXiv)
                line.add(year)
                break
            }
            var journal = journalField ?? value(.journaltitle) ?? ""
            if let volume = value(.volume) {
                journal += journal.isEmpty ? volume : " " + volume
                if let number = value(.number) ?? value(.issue) { journal += "(" + number + ")" }
                if let pages = value(.pages) { journal += ":" + pages }
                line.add(journal)
            } else {
                if let number = value(.number) { journal += journal.isEmpty ? "no. " + number : " (" + number + ")" }
                line.add(journal)
                line.add(value(.pages).map(CitationFormat.pagesPhrase))
            }
            line.add(year)
        case "inproceedings", "conference", "incollection", "inbook", "inreference", "bookinbook":
            let inWhat = value(.booktitle) ?? value(.maintitle)
            if inWhat == nil { line.add(value(.publisher)) }
            line.add(inWhat.map { "In " + $0 })
            line.add(value(.pages).map(CitationFormat.pagesPhrase))
            line.add(year)
        case "book", "mvbook", "booklet", "proceedings", "mvproceedings", "collection", "mvcollection", "reference":
            line.add(value(.publisher) ?? value(.organization) ?? value(.howpublished))
            line.add(year)
        case "phdthesis":
            line.add("PhD thesis")
            line.add(value(.school) ?? value(.institution))
            line.add(year)
        case "mastersthesis":
            line.add("Master's thesis")
            line.add(value(.school) ?? value(.institution))
            line.add(year)
        case "thesis":
            line.add(value(.type).map(CitationFormat.thesisKind) ?? "Thesis")
            line.add(value(.school) ?? value(.institution))
            line.add(year)
        case "techreport", "report":
            var report = value(.type) ?? "Technical report"
            if let number = value(.number) { report += " " + number }
            line.add(report)
            line.add(value(.institution) ?? value(.school))
            line.add(year)
        case "manual":
            line.add(value(.organization) ?? value(.publisher))
            line.add(value(.edition).map { $0 + " edition" })
            line.add(year)
        case "unpublished":
            line.add(value(.note) ?? "Unpublished")
            line.add(year)
        default:
            if let arXiv = arXivIdentifier {
                line.add("arXiv:" + arXiv)
            } else {
                line.add(value(.howpublished) ?? value(.publisher) ?? value(.organization) ?? value(.url) ?? value(.note))
            }
            line.add(year)
        }
        return line.text
    }
}

/// A citation line built part by part: empty and missing parts are left out, the rest joined
/// by `, `.
private struct CitationLine {
    private(set) var text = ""

    mutating func add(_ part: String?) {
        guard let part, !part.isEmpty else { return }
        if !text.isEmpty { text += ", " }
        text += part
    }
}

/// Small wording rules of citation lines.
enum CitationFormat {
    static func pagesPhrase(_ pages: String) -> String {
        let isRange = pages.utf8.contains { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ",") }
            || pages.unicodeScalars.contains("\u{2013}")
        return isRange ? "pp. " + pages : "p. " + pages
    }

    static func thesisKind(_ type: String) -> String {
        switch type.lowercased() {
        case "phdthesis", "phd": return "PhD thesis"
        case "mathesis", "mastersthesis", "ma", "masters": return "Master's thesis"
        default: return type
        }
    }
}
