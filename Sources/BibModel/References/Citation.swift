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
    public var authors: NameList { NameList(raw: raw(.author) ?? "") }

    /// The editors (`editor` field), parsed.
    public var editors: NameList { NameList(raw: raw(.editor) ?? "") }

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
        var parts: [String?]
        switch type {
        case "article":
            let journalField = value(.journal)
            if let arXiv = arXivIdentifier, journalField == nil || journalField?.lowercased().hasPrefix("arxiv") == true {
                parts = ["arXiv:\(arXiv)", year]
                break
            }
            var journal = journalField ?? value(.journaltitle) ?? ""
            if let volume = value(.volume) {
                journal += journal.isEmpty ? volume : " \(volume)"
                if let number = value(.number) ?? value(.issue) { journal += "(\(number))" }
                if let pages = value(.pages) { journal += ":\(pages)" }
                parts = [journal, year]
            } else {
                if let number = value(.number) { journal += journal.isEmpty ? "no. \(number)" : " (\(number))" }
                parts = [journal.isEmpty ? nil : journal, value(.pages).map(CitationFormat.pagesPhrase), year]
            }
        case "inproceedings", "conference", "incollection", "inbook", "inreference", "bookinbook":
            let inWhat = value(.booktitle) ?? value(.maintitle)
            parts = [inWhat.map { "In \($0)" }, value(.pages).map(CitationFormat.pagesPhrase), year]
            if inWhat == nil { parts.insert(value(.publisher), at: 0) }
        case "book", "mvbook", "booklet", "proceedings", "mvproceedings", "collection", "mvcollection", "reference":
            parts = [value(.publisher) ?? value(.organization) ?? value(.howpublished), year]
        case "phdthesis":
            parts = ["PhD thesis", value(.school) ?? value(.institution), year]
        case "mastersthesis":
            parts = ["Master's thesis", value(.school) ?? value(.institution), year]
        case "thesis":
            let kind = value(.type).map(CitationFormat.thesisKind) ?? "Thesis"
            parts = [kind, value(.school) ?? value(.institution), year]
        case "techreport", "report":
            var report = value(.type) ?? "Technical report"
            if let number = value(.number) { report += " \(number)" }
            parts = [report, value(.institution) ?? value(.school), year]
        case "manual":
            parts = [value(.organization) ?? value(.publisher), value(.edition).map { "\($0) edition" }, year]
        case "unpublished":
            parts = [value(.note) ?? "Unpublished", year]
        default:
            if let arXiv = arXivIdentifier {
                parts = ["arXiv:\(arXiv)", year]
            } else {
                parts = [value(.howpublished) ?? value(.publisher) ?? value(.organization) ?? value(.url) ?? value(.note), year]
            }
        }
        return parts.compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
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
