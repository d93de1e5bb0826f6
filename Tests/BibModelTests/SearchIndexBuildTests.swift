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
}
