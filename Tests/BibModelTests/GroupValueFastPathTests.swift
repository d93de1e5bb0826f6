@testable import BibModel
import BibreadTestSupport
import Foundation
import Testing

/// The fast paths of reading field groups' values and naming them (issue 31, round 2) give
/// exactly what the straightforward code gives: the natural-order key of ASCII text worked out
/// byte by byte, the whitespace trim without Foundation when nothing is cut, keywords split
/// without a string of separators, and JabRef keyword groups read from one column of the
/// field's values per context instead of every reference per group. On every value of the
/// whole corpus (the bench library's references) and on hostile text.
@Suite("group values: fast paths against the straightforward ones")
struct GroupValueFastPathTests {
    private static let corpus: Library = LibraryLoader.load(paths: Fixtures.corpusBibFiles.map(\.path)).library

    /// Text written to hurt the byte paths: digit runs with and without leading zeros, longer
    /// than 20 digits, zeros alone, at either end, next to letters; control characters, CR LF,
    /// upper case, every kind of space at either end, non-ASCII letters and marks.
    private static let hostile: [String] = {
        var texts = ["", "0", "00", "000000000000000000000000", "1", "01", "a0", "0a", "a00b", "A10b010c0",
                     "Vol 2", "Vol 10", "vol 010", "x 123456789012345678901234567890 y", "0000000000000000000012",
                     "12345678901234567890", "123456789012345678901", "\r\n", "a\r\nb1", "\t1\t", "\u{1}\u{7F}9",
                     " ", "  a", "a  ", "\ta", "a\t", " a b ", "\u{A0}a", "a\u{A0}", "\u{3000}x\u{2003}", "é ", " é",
                     "e\u{301}", "a\u{301} ", "Gödel 2", "Straße 07", "ÅNGSTRÖM", "①②", "٣٤", " \u{301}x", "x\u{3000}\u{301}", "\u{2028}a\u{85}", "\u{FEFF}b\u{180E}", "\u{200B}c\u{200A}", "x١٢y", "ＡＢ12",
                     "Z", "ZZZ9", "[0]", "~9~", "9" + String(repeating: "0", count: 40), ",", ";", ",,;;"]
        for scalar in [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x2F, 0x30, 0x39, 0x3A, 0x40, 0x41, 0x5A, 0x5B, 0x60,
                       0x61, 0x7A, 0x7E, 0x7F] {
            let character = String(UnicodeScalar(UInt8(scalar)))
            texts += [character, "a" + character + "1", character + "01" + character]
        }
        return texts
    }()

    /// Every author, keyword, year, journal and type value of the corpus, and the hostile text.
    private static let names: [String] = {
        var values = Set<String>()
        for entry in corpus.entries {
            for field in ["author", "keywords", "year", "journal", "type"] {
                values.formUnion(GroupCatalog.values(of: entry, field: field))
            }
            values.formUnion((entry.value(named: "keywords") ?? "").split(whereSeparator: { ",;".contains($0) }).map(String.init))
        }
        return Array(values) + hostile
    }()

    @Test("The natural-order key of ASCII text is the one worked out character by character")
    func naturalOrderKeys() {
        #expect(Self.names.count > 20_000)
        var differing: [String] = []
        for name in Self.names where NaturalOrder.key(for: name) != NaturalOrder.foldedKey(for: name) {
            differing.append(name)
        }
        #expect(differing.isEmpty, "\(differing.prefix(10))")
        // The order of all of them, as the sort gives it.
        let straightforward = Self.names.map { (key: NaturalOrder.foldedKey(for: $0), value: $0) }
            .sorted { $0.key != $1.key ? $0.key < $1.key : $0.value < $1.value }.map(\.value)
        #expect(NaturalOrder.sorted(Self.names) == straightforward)
    }

    @Test("Trimming whitespace is Foundation's trim")
    func trimming() {
        var parts = Self.names
        for name in Self.names.prefix(5_000) { parts += [" " + name, name + "\t", "\u{A0}" + name + "\u{2009}"] }
        for part in parts {
            #expect(GroupCatalog.trimmingWhitespace(Substring(part)) == part.trimmingCharacters(in: .whitespaces), "\(part.debugDescription)")
        }
    }

    @Test("The whitespace scalars are those of CharacterSet.whitespaces")
    func whitespaceScalars() {
        var differing: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if GroupCatalog.isWhitespace(scalar) != CharacterSet.whitespaces.contains(scalar) { differing.append(value) }
        }
        #expect(differing.isEmpty, "\(differing.prefix(10))")
    }

    @Test("Journals are read as by their names")
    func journals() {
        let hostile = Fixtures.library("""
            @article{a, JOURNAL = {J One}, journaltitle = {JT}}
            @article{b, Journaltitle = {JT two}}
            @article{c, journal = {}, journaltitle = {JT three}}
            @article{d, journal = {J4}, journal = {J4 again}}
            @article{p, journal = {Parent J}}
            @article{e, crossref = {p}}
            @article{f, journaltitle = {T}, crossref = {p}}
            """).entries
        for entry in Self.corpus.entries + hostile {
            let expected = (entry.value(named: "journal") ?? entry.value(named: "journaltitle")).map { [$0] } ?? []
            #expect(GroupCatalog.values(of: entry, field: "journal") == expected, "\(entry.key)")
        }
    }

    @Test("Keywords and JabRef group names are split and trimmed as before")
    func keywordsAndGroupNames() {
        let hostile = Fixtures.library(Self.hostile.enumerated().map { number, text in
            "@misc{k\(number), keywords = {\(text), \(text);x ;\t\(text)}, groups = {\(text) ,\(text)}}\n"
        }.joined()).entries
        for entry in Self.corpus.entries + hostile {
            let keywords = (entry.value(named: "keywords") ?? "").split(whereSeparator: { ",;".contains($0) })
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            #expect(GroupCatalog.values(of: entry, field: "keywords") == keywords, "\(entry.key)")
            let groups = (entry.value(named: "groups") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(Group.jabrefGroupNames(entry) == groups, "\(entry.key)")
        }
    }

    @Test("The % comment lines found with memchr are those a loop a byte at a time finds")
    func percentCommentLines() throws {
        var texts = ["", "\n", "%", "%\n", "\n%", " \t% a\n%b", "%a\n\n\n  %b\n", "x%\n %y", "\r\n% z\r\n", "%\u{0}\n%é"]
        texts += try Fixtures.corpusBibFiles.prefix(40).map { String(decoding: try Data(contentsOf: $0), as: UTF8.self) }
        for text in texts {
            let bytes = Array(text.utf8)
            // The loop the Zotero check ran before.
            var expected: [String] = []
            var index = 0
            while index < bytes.count {
                while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
                var end = index
                while end < bytes.count, bytes[end] != 0x0A { end += 1 }
                if index < end, bytes[index] == 0x25 { expected.append(String(decoding: bytes[index..<end], as: UTF8.self)) }
                index = end + 1
            }
            #expect(LibraryConventions.percentCommentLines(bytes) == expected)
        }
    }

    @Test("JabRef keyword groups from the field's column are those reading every reference finds")
    func jabrefKeywordGroups() throws {
        // Keyword groups on several fields, each term as a word and as an expression, in both
        // cases; a bad expression; groups nested in others (asked for again by their parents).
        let terms = [("keywords", "tex", false, false), ("keywords", "TeX", true, false), ("title", "graph", false, false),
                     ("author", "knuth", false, false), ("journal", "^Comm", true, true), ("title", "(?i)quantum|lattice", false, true),
                     ("keywords", "[unclosed", false, true), ("year", "19[0-9]0", false, true), ("groups", "g1", false, false),
                     ("note", "é", false, false)]
        var lines = ["@comment{jabref-meta: grouping:", "0 AllEntriesGroup:;"]
        for (number, term) in terms.enumerated() {
            lines.append("1 KeywordGroup:k\(number)\\;0\\;\(term.0)\\;\(term.1)\\;\(term.2 ? 1 : 0)\\;\(term.3 ? 1 : 0)\\;;")
            lines.append("2 KeywordGroup:inner\(number)\\;1\\;\(term.0)\\;\(term.1)\\;\(term.2 ? 1 : 0)\\;\(term.3 ? 1 : 0)\\;;")
        }
        lines.append("}")
        let text = try Fixtures.corpusBibFiles.map { String(decoding: try Data(contentsOf: $0), as: UTF8.self) }.joined(separator: "\n")
        for library in [Fixtures.library(text + "\n" + lines.joined(separator: "\n")),
                        Fixtures.library(String(repeating: "@misc{a, keywords = {tex, TeX;texts}, title = {Graph é}, groups = {g1}}\n@misc{b, title = {}}\n", count: 5_000)
                                         + lines.joined(separator: "\n"))] {
            let context = GroupContext(library: library, locator: FilesOnDisk())
            var checked = 0
            for group in GroupCatalog.flattened(GroupCatalog.groups(of: library, synced: false)) where group.kind == .jabref {
                guard let expected = Self.straightforwardMembers(group.rule, in: library) else { continue }
                #expect(group.members(in: library, context: context) == expected, "\(group.name)")
                checked += 1
            }
            #expect(checked >= terms.count * 2)
        }
    }

    /// The members of a keyword group (or one narrowing its parent) as the rule found them
    /// before, reading every reference's value for each group; nil for other rules.
    private static func straightforwardMembers(_ rule: Group.Rule, in library: Library) -> [Int]? {
        switch rule {
        case .jabrefKeyword(let field, let term, let caseSensitive, let regex):
            let pattern = regex ? term : "(^|[^\\p{L}\\p{N}])" + NSRegularExpression.escapedPattern(for: term) + "($|[^\\p{L}\\p{N}])"
            guard let expression = try? NSRegularExpression(pattern: pattern, options: caseSensitive ? [] : [.caseInsensitive]) else {
                return []
            }
            return library.entries.indices.filter { index in
                guard let text = library.entries[index].value(named: field) else { return false }
                return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            }
        case .intersection(let rules):
            var result: Set<Int>?
            for rule in rules {
                guard let members = straightforwardMembers(rule, in: library) else {
                    if case .all = rule { continue }
                    return nil
                }
                result = result.map { $0.intersection(members) } ?? Set(members)
            }
            return (result ?? []).sorted()
        default:
            return nil
        }
    }

    @Test("A field found by its name, skipping ASCII names of another length, is the one comparing every name finds")
    func fieldsByName() {
        // Names that differ in case, in canonical form only (é precomposed or not, the Kelvin
        // sign, which is K), in length, and names no reference has.
        let hostile = Fixtures.library("""
            @misc{h1, Note = {a}, NOTE = {b}, caf\u{E9} = {c}, K = {d}, kk = {e}}
            @misc{h2, cafe\u{301} = {f}, \u{212A} = {g}, x = {}, xx = {h}}
            @misc{h3, title = {t}, crossref = {h1}}
            """).entries
        var names: Set<String> = ["", "note", "NOTE", "Note", "caf\u{E9}", "cafe\u{301}", "k", "K", "\u{212A}", "kk", "xxx",
                                  "no such field", "CAF\u{C9}", "CAFE\u{301}", "\u{212A}K", "Kk", "KEYWORDS", "keywords", "groups", "date-added", "read", "journal"]
        for entry in Self.corpus.entries {
            for field in entry.fields { names.insert(entry.name(of: field)) }
        }
        var found = 0
        // Every 7th reference of the corpus (each file's names are numbered apart), and all hostile ones.
        let entries = Self.corpus.entries.enumerated().filter { $0.offset % 7 == 0 }.map(\.element) + hostile
        for entry in entries {
            for name in names {
                let fast = entry.field(name)
                let slow = entry.fieldComparingEveryName(name)
                #expect(fast.map { [Int($0.nameID), Int($0.first), Int($0.second)] } == slow.map { [Int($0.nameID), Int($0.first), Int($0.second)] },
                        "\(entry.key): \(name)")
                if fast != nil { found += 1 }
            }
        }
        #expect(found > 20_000)
    }

    @Test("Names sorted with ASCII keys compared byte by byte are in the order comparing the keys as Strings gives")
    func naturalOrderSort() {
        // Every name of the corpus and the hostile text, also in other orders (the sort is
        // stable: names with the same key keep the order of their String comparison).
        var generator = SystemRandomNumberGenerator()
        for names in [Self.names, Self.names.reversed(), Self.names.shuffled(using: &generator), Self.hostile + Self.hostile] {
            #expect(NaturalOrder.sorted(names) == NaturalOrder.sortedComparingStrings(names))
        }
        #expect(Self.names.count > 10_000)
    }

    @Test("The creators' short names decoded from their spans are those of the parsed name list")
    func creatorShortNames() {
        // Von parts alone or with an empty last name, braces, accents that compose or not,
        // commands, a missing or empty author list (the editors then), `others` alone,
        // separators doubled, spaces and commas where no name is.
        let hostile = Fixtures.library(#"""
            @misc{n1, author = {van der Aalst, Wil and de la Fontaine, Jean and {Barnes and Noble} and Knuth, Jr, Donald E.}}
            @misc{n2, author = {d{\'e} la {V}all{\'e}e Poussin, Charles and von {} and von , X and {\"O}zt{\"u}rk, {\c{S}}. and e\#u{301}mile Zola}}
            @misc{n3, author = {others}, editor = {Lamport, Leslie}}
            @misc{n4, author = {}, editor = {Lamport, Leslie and others}}
            @misc{n5, author = { and  and , and {} and \relax{} and {\relax} Smith}}
            @misc{n6, editor = {{\'{E}}cole and van and von der and {de} la Cruz, {}}}
            @misc{n7, author = {\textbf{Bold} {\em Emph} and \'Angstr\"om, Anders and Ȧ\.{}b and \v{C}apek, K.}}
            @misc{n8, author = {{{{}}}} and {a}{b} c{D}e and ,,, and Last,, and , First}}
            @misc{n9, title = {no names}}
            """#).entries
        var compared = 0
        for entry in Self.corpus.entries + hostile {
            #expect(entry.creatorShortNames == entry.creators.names.map(\.shortName), "\(entry.key)")
            // Byte for byte as well: the index's keys and the printed names are bytes.
            #expect(entry.creatorShortNames.map { Array($0.utf8) } == entry.creators.names.map { Array($0.shortName.utf8) }, "\(entry.key)")
            compared += entry.creators.names.count
        }
        #expect(compared > 100_000)
    }

    /// The conventions of each file by path, as the read flags (Unread) use them: a one-file
    /// library is read with all its entries at once, without grouping them by path; either way
    /// each file's conventions are those of its own entries, on every corpus file alone and on
    /// the corpus as one library of many files.
    @Test("Each file's conventions are read from its own entries, one file or many")
    func conventionsByPath() {
        func straightforward(_ library: Library) -> [String: LibraryConventions] {
            var conventions: [String: LibraryConventions] = [:]
            for file in library.files where conventions[file.source.path] == nil {
                conventions[file.source.path] = LibraryConventions(file: file, entries: library.entries.filter { $0.source.path == file.source.path })
            }
            return conventions
        }
        var checked = 0
        for url in Fixtures.corpusBibFiles {
            let library = Fixtures.library(at: url)
            #expect(LibraryConventions.byPath(of: library) == straightforward(library), "\(url.lastPathComponent)")
            checked += 1
        }
        #expect(checked > 100)
        #expect(Self.corpus.files.count > 1)
        #expect(LibraryConventions.byPath(of: Self.corpus) == straightforward(Self.corpus))
        let empty = Fixtures.library("% nothing\n")
        #expect(LibraryConventions.byPath(of: empty) == straightforward(empty))
    }
}
