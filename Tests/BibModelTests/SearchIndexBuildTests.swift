@testable import BibModel
import BibreadTestSupport
import Foundation
import Testing

/// The search index's fast path against the straightforward one: the words of ASCII text read in
/// one pass against `FoldedWords.of(Folding.fold(text))`, on the corpora's texts and hostile ones.
@Suite("search index build")
struct SearchIndexBuildTests {
    static let hostile = [
        "", " ", "a", "A", "Z", "z", "@[`{", "AbC-dEf_ghi", "x1y2 Z9", "c++ o'brien", "TeX\tLaTeX\nBibTeX", "..", "a.b.c", "  lead",
        "trail  ", "0", "09", "@A[Z`a{z/0:9", String(repeating: "Ab1 ", count: 3_000), "\u{7F}x\u{1F}y", "MiXeD CaSe 42nd",
    ]

    /// The corpora's decoded field texts (every field of every entry).
    static func corpusTexts() throws -> [String] {
        let paths = Fixtures.corpusBibFiles.map(\.path)
        try #require(paths.count > 100, "the corpora are missing: \(Fixtures.corpora.path)")
        let library = LibraryLoader.load(paths: paths).library
        return library.entries.flatMap { entry in entry.fields.map { entry.decodedText(of: $0) } }
    }

    @Test func asciiWordsAreTheFoldedWords() throws {
        for text in try Self.corpusTexts() + Self.hostile where !text.utf8.contains(where: { $0 >= 0x80 }) {
            var scratch: [UInt8] = []
            var words: [String] = []
            var copy = text
            copy.withUTF8 { bytes in
                SearchIndexBuilder.forEachFoldedWord(of: bytes, scratch: &scratch) { words.append(String(decoding: $0, as: UTF8.self)) }
            }
            #expect(words == FoldedWords.of(Folding.fold(text)), "\(text.prefix(80))")
        }
    }

    /// Every list of the index (for all fields and per index name) is the straightforward one:
    /// each searchable text of each reference folded and split, the references of each word (by
    /// its bytes) in order; the words in the order String's `<` puts them.
    @Test func theIndexListsWhatEachTextHolds() throws {
        let paths = Fixtures.corpusBibFiles.map(\.path)
        try #require(paths.count > 100, "the corpora are missing: \(Fixtures.corpora.path)")
        Self.compare(LibraryLoader.load(paths: paths).library.entries)
        // The hostile texts that keep a field closed (no braces), and short (copied thousands of times).
        let hostile = Self.hostile.filter { !$0.contains("{") && $0.count < 100 }.enumerated().map { number, text in
            "@misc{h\(number), title = {\(text)}, note = {x \(text) Gödel G{\\\"o}del e\u{301}t\u{E9} ﬁ ß}, year = \(number)}\n"
        }.joined()
        // Enough copies that the index is built in parts on several threads and joined.
        let library = Fixtures.library(String(repeating: hostile, count: 500) + "@misc{last, title = {only here zzz}}\n")
        #expect(library.entries.count > SearchIndex.parallelMinimum)
        Self.compare(library.entries)
    }

    static func compare(_ entries: [Entry], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        var expected: [String?: [[UInt8]: [Int32]]] = [:]
        for (position, entry) in entries.enumerated() {
            for (name, text) in SearchIndex.searchableTexts(of: entry) {
                for word in FoldedWords.of(Folding.fold(text)) {
                    for field in [nil, SearchIndex.indexName(name)] where expected[field, default: [:]][Array(word.utf8)]?.last != Int32(position) {
                        expected[field, default: [:]][Array(word.utf8), default: []].append(Int32(position))
                    }
                }
            }
        }
        let index = SearchIndex(entries: entries)
        for (field, lists) in expected {
            var found: [[UInt8]: [Int32]] = [:]
            var words: [String] = []
            index.postings(of: field)?.forEachWord { word, list in
                found[Array(word.utf8)] = Array(list)
                words.append(word)
            }
            let wrong = lists.first { found[$0.key] != $0.value }.map { String(decoding: $0.key, as: UTF8.self) }
            let what = "\(field ?? "all fields"): \(found.count) words, expected \(lists.count); first wrong list: \(wrong ?? "none")"
            #expect(found.count == lists.count && wrong == nil, "\(what)", sourceLocation: sourceLocation)
            #expect(zip(words, words.dropFirst()).allSatisfy { !($1 < $0) }, "\(field ?? "all fields") out of order", sourceLocation: sourceLocation)
        }
        #expect(index.postings(of: "no such field") == nil, sourceLocation: sourceLocation)
    }
}
