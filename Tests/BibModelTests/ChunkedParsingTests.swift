import BibModel
import BibreadTestSupport
import Foundation
import Testing

/// A large file is read in chunks on several threads; wherever the chunks start, the result is
/// exactly that of one pass: the same entries, fields, field numbers, macros and problems, in
/// the same order.
@Suite("BibTeX read in chunks")
struct ChunkedParsingTests {
    /// A file where something crosses from one chunk into a later one.
    struct Case: CustomTestStringConvertible, Sendable {
        let rule: String
        let text: String
        /// Whether to try a chunk at every byte too (too slow for megabytes of expansions).
        var everyByte = true
        var testDescription: String { rule }
    }

    static let cases: [Case] = [
        Case(rule: "a macro defined early, used later alone and in concatenations", text: """
            @string{tug = "TUGboat"}
            @string{ams = {American Mathematical Society}}
            @article{a, journal = tug, year = 1990}
            @article{b, journal = "The " # tug # " journal", publisher = ams # ", " # ams}
            @article{c, journal = tug # ", " # "vol", note = "x" # tug}
            """),
        Case(rule: "an undefined macro warns where one pass warns, among other problems", text: """
            @string{known = "K"}
            @misc{a, note = known}
            @misc{b, note = unknown # known, title = {T}
            @misc{c, title = {T} year = 2001}
            @misc{d, note = other, howpublished = known # missing}
            """),
        Case(rule: "months, and a month redefined before its use", text: """
            @misc{a, month = jan}
            @string{feb = "Februar"}
            @misc{b, month = feb # "~1", note = mar}
            """),
        Case(rule: "a redefinition across chunks warns, one inside a chunk too", text: """
            @string{s = "one"}
            @misc{a, note = s}
            @string{s = "two", t = "T"}
            @misc{b, note = s # t}
            @string{t = "T2"}
            @misc{c, note = t}
            """),
        Case(rule: "a macro defined from an earlier chunk's macro", text: """
            @string{base = "Base"}
            @misc{a, note = base}
            @string{derived = base # " derived"}
            @misc{b, note = derived}
            """),
        Case(rule: "a later macro shadows an earlier one from where it is defined", text: """
            @string{j = "Early"}
            @misc{a, journal = j}
            @misc{b, journal = j}
            @string{j = "Late"}
            @misc{c, journal = j}
            """),
        Case(rule: "@preamble and @bibdesk_info using earlier macros", text: """
            @string{p = "\\\\newcommand{\\\\x}{y}"}
            @preamble{p # " more"}
            @bibdesk_info{document_info, author = p}
            @misc{a, title = {T}}
            """),
        Case(rule: "a @comment that runs across lines starting with entries", text: """
            @misc{a, title = {A}}
            @comment{
            @misc{hidden, title = {not an entry}}
            }
            @misc{b, title = {B}}
            """),
        Case(rule: "an unterminated value and a missing brace before later entries", text: """
            @misc{a, title = {Open
            @misc{b, title = {B}}
            @misc{c, title = "open
            @misc{d, title = {D}
            @misc{e, title = {E}}
            """),
        Case(rule: "field names new in later chunks, in other cases, and duplicated", text: """
            @misc{a, title = {A}, Author = {X}}
            @misc{b, TITLE = {B}, zzz = {new}, Title = {dup}}
            @MISC{c, yyy = {newer}, ZZZ = {again}, author = {Y}}
            """),
        Case(rule: "commented-out entries, free text and a lone @", text: """
            Some text @ here.
            %@misc{gone, title = {G}}
            @misc{a, title = {A}}
              @misc(b, title = {B})
            mail me@example.org
            @misc{c, title = {C}}
            """),
        Case(rule: "macros that would explode past the expansion limit", text: """
            @string{a = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}
            @string{b = a # a # a # a # a # a # a # a # a # a # a # a # a # a # a # a}
            @string{c = b # b # b # b # b # b # b # b # b # b # b # b # b # b # b # b}
            @string{d = c # c # c # c # c # c # c # c # c # c # c # c # c # c # c # c}
            @misc{x1, note = d # d # d # d # d # d # d # d}
            @misc{x2, note = d # d # d # d # d # d # d # d}
            @misc{x3, note = d # d # d # d # d # d # d # d}
            @misc{x4, note = d}
            """, everyByte: false),
        Case(rule: "crossref parents in one chunk, children in another", text: """
            @proceedings{p, title = {Proc}, year = 1999, publisher = pub}
            @string{pub = "P"}
            @inproceedings{c, crossref = {p}, title = {Child}, note = pub}
            """),
    ]

    @Test(arguments: cases)
    func everySplitGivesOnePassResult(_ testCase: Case) {
        let bytes = Array(testCase.text.utf8)
        let expected = Self.read(bytes, chunkStarts: [])
        let ats = bytes.indices.filter { bytes[$0] == UInt8(ascii: "@") }
        #expect(ats.count >= 3, "the case has too few blocks to split")
        for at in ats {
            #expect(Self.read(bytes, chunkStarts: [at]) == expected, "chunk starting at byte \(at)")
        }
        for at in ats.dropFirst() {
            #expect(Self.read(bytes, chunkStarts: [1, at - 1, at + 1]) == expected, "chunks around byte \(at), at no block")
        }
        #expect(Self.read(bytes, chunkStarts: ats) == expected, "a chunk at every @")
        if testCase.everyByte {
            #expect(Self.read(bytes, chunkStarts: Array(1..<bytes.count)) == expected, "a chunk at every byte")
        }
    }

    /// The cases really cross chunks: what the later chunk needs from the earlier shows up.
    @Test func deferredMacrosAreResolved() throws {
        let text = "@string{tug = \"TUGboat\"}\n@misc{a, journal = \"The \" # tug, note = nope}\n"
        let split = try #require(text.utf8.firstIndex(of: UInt8(ascii: "\n"))).utf16Offset(in: text) + 1
        var macros = MacroTable()
        let file = BibFile.parse(bytes: Array(text.utf8), path: "t.bib", macros: &macros, chunkStarts: [split])
        #expect(file.entries.first?.raw("journal") == "The TUGboat")
        #expect(file.entries.first?.raw("note") == "nope")
        #expect(file.diagnostics.map(\.description) == ["t.bib:2:41: warning: undefined @string 'nope', kept as text"])
    }

    /// Every real file, read in four chunks, as in one pass; the smaller ones (most of them)
    /// also in a chunk per entry and in chunks starting at arbitrary bytes.
    @Test(arguments: Fixtures.corpusBibFiles)
    func realFilesReadInChunksAsInOnePass(_ url: URL) throws {
        let bytes = [UInt8](try Data(contentsOf: url))
        let expected = Self.read(bytes, chunkStarts: [])
        let lineStarts = bytes.indices.filter { bytes[$0] == UInt8(ascii: "@") && ($0 == 0 || bytes[$0 - 1] == 0x0A) }
        let quarters = [1, 2, 3].compactMap { lineStarts.isEmpty ? nil : lineStarts[lineStarts.count * $0 / 4] }
        #expect(Self.read(bytes, chunkStarts: quarters) == expected, "\(url.lastPathComponent) in quarters at \(quarters)")
        guard bytes.count <= 256 * 1024 else { return }
        #expect(Self.read(bytes, chunkStarts: lineStarts) == expected, "\(url.lastPathComponent) in a chunk per entry")
        let thirds = [bytes.count / 3, 2 * bytes.count / 3]
        #expect(Self.read(bytes, chunkStarts: thirds) == expected, "\(url.lastPathComponent) at arbitrary bytes \(thirds)")
    }

    /// Everything a file's reading gives, written out so that two readings compare as text.
    static func read(_ bytes: [UInt8], chunkStarts: [Int]) -> [String] {
        var macros = MacroTable()
        let file = BibFile.parse(bytes: bytes, path: "test.bib", macros: &macros, chunkStarts: chunkStarts)
        var lines: [String] = []
        for entry in file.entries {
            lines.append("@\(entry.type){\(entry.key) at \(entry.location)")
            for field in entry.fields {
                lines.append("  \(entry.spelledName(of: field)) #\(field.nameNumber) \(field.kind) at \(entry.location(of: field)) = \(entry.rawText(of: field))")
            }
        }
        lines += file.comments.map { "comment: \($0.text)" }
        lines += file.preambles.map { "preamble: \($0.text)" }
        lines += file.strings.map { "string \($0) = \(macros[$0] ?? "undefined")" }
        lines += ["jan", "feb", "mar"].map { "month \($0) = \(macros[$0] ?? "undefined")" }
        lines += file.documentInfo.sorted { $0.key < $1.key }.map { "info \($0.key) = \($0.value)" }
        lines += file.diagnostics.map(\.description)
        return lines
    }
}
