import BibModel
import BibreadTestSupport
import Foundation
import Testing

/// `Entry.firstCreator` (the first person only, the rest of the list not split) against the
/// straightforward `creators.names.first` (every name split and decoded).
@Suite("First creator")
struct FirstCreatorTests {
    /// Hostile and odd name lists: `others` anywhere, empty parts, braces that protect `and`,
    /// unbalanced braces, commas, LaTeX accents, invalid UTF-8, an author list that names nobody.
    static let hostile = """
        @misc{a1, author = {others}, editor = {Knuth, Donald}}
        @misc{a2, author = {others and Lamport, Leslie}}
        @misc{a3, author = { and and Knuth}, editor = {Plass, Michael}}
        @misc{a4, author = {}, editor = {van der Aalst, Wil and others}}
        @misc{a5, author = {{Barnes and Noble} and Knuth}}
        @misc{a6, author = {Knuth, Jr, Donald, Ervin and Lamport}}
        @misc{a7, author = {G{\\"o}del, Kurt and Erd{\\H{o}}s, P{\\'a}l}}
        @misc{a8, author = {{\\relax Ch}ristopher and {ab}}}
        @misc{a9, author = {Knuth, {Donald and Ervin}}}
        @misc{a10, author = {and}, editor = {}}
        @misc{a11, author = {  ~ }, editor = {others}}
        @misc{a12, author = {de la Vall{\\'e}e Poussin, Charles Louis Xavier Joseph}}
        @misc{a13, author = {Knuth, Donald {and}}}
        @misc{a14, editor = {AND and OTHERS and Zeta}}
        @misc{a15, author = {李, 小龙 and Ильин, Иван}}
        @misc{a16, author = {{{{Unbalanced} and Knuth}}
        @misc{a17, author = {\\"{}, , , and Last}}
        @misc{a18, title = {No one}}
        """

    @Test func hostileListsGiveTheFirstOfCreators() throws {
        var bytes = Array(Self.hostile.utf8)
        // Invalid UTF-8 inside a name.
        bytes += Array("\n@misc{bad, author = {Kn".utf8) + [0xFF, 0xC3] + Array("uth and Lamport}}\n".utf8)
        let library = Library.parse([(path: "hostile.bib", bytes: bytes)])
        #expect(library.entries.count >= 18)
        for entry in library.entries {
            #expect(entry.firstCreator == entry.creators.names.first, "\(entry.key)")
        }
    }

    @Test func everyEntryOfTheCorporaGivesTheFirstOfCreators() throws {
        let files = Fixtures.corpusBibFiles
        try #require(!files.isEmpty, "no corpus at \(Fixtures.corpora.path)")
        var checked = 0
        for file in files {
            for entry in Fixtures.library(at: file).entries {
                if entry.firstCreator != entry.creators.names.first {
                    Issue.record("\(file.lastPathComponent): \(entry.key)")
                }
                checked += 1
            }
        }
        #expect(checked > 40_000)
    }
}
