import BibModel
import Foundation
import Testing
import BibreadTestSupport

/// Every real file of the shared corpora: it loads, and what it says about itself is true.
@Suite("real-world corpora")
struct CorpusTests {
    @Test func corporaArePresent() {
        #expect(Fixtures.corpusBibFiles.count > 500, "expected the shared corpora at \(Fixtures.corpora.path)")
    }

    @Test(arguments: Fixtures.corpusBibFiles)
    func fileLoadsAndDiagnosticsPointAtRealLines(_ url: URL) throws {
        let result = LibraryLoader.load(paths: [url.path])
        let data = try Data(contentsOf: url)
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for diagnostic in result.library.diagnostics {
            #expect(diagnostic.path == url.path)
            #expect(diagnostic.location.line >= 1 && diagnostic.location.line <= lines.count, "\(diagnostic)")
            if diagnostic.location.line <= lines.count {
                let line = lines[diagnostic.location.line - 1]
                // The column is within the line (counted in characters, so never past its bytes).
                #expect(diagnostic.location.column <= line.count + 1, "\(diagnostic)")
            }
        }
        // Every entry's own location is the line that starts it.
        for entry in result.library.entries.prefix(50) {
            let line = lines[entry.location.line - 1]
            let text = String(decoding: line, as: UTF8.self)
            #expect(text.contains("@") || result.library.files[0].source.encoding != .utf8, "\(url.lastPathComponent):\(entry.location.line)")
        }
        // Decoding every field of every entry never crashes or leaves replacement characters
        // unless the file itself had them.
        for entry in result.library.entries {
            _ = entry.citation
            _ = entry.creators.display
            _ = entry.links
        }
    }

    @Test func entriesAfterABrokenOneAreFound() throws {
        // Thi\{'ebaux leaves a brace open; the technical report after it must still be there.
        let url = Fixtures.corpus("bib/zotero-bbt/import_Some_bibtex_entries_quietly_discarded_on_import_from_bib_file__873.bib")
        let library = Fixtures.library(at: url)
        let error = try #require(library.diagnostics.first { $0.severity == .error })
        #expect(error.message.hasPrefix("unterminated value"))
        let keysAfter = library.entries.filter { $0.location.line > error.location.line }.map(\.key)
        #expect(keysAfter.count >= 10, "entries after line \(error.location.line): \(keysAfter.count)")
    }

    @Test func tugboatHasAllItsEntries() {
        let library = Fixtures.library(at: Fixtures.corpus("bib/beebe/tugboat.bib"))
        let text = (try? String(contentsOf: Fixtures.corpus("bib/beebe/tugboat.bib"), encoding: .utf8)) ?? ""
        let declared = text.components(separatedBy: "\n@").filter { block in
            let type = block.prefix { $0 != "{" && $0 != "(" }.lowercased()
            return !["string", "preamble", "comment"].contains(type)
        }.count - (text.hasPrefix("@") ? 0 : 1)
        #expect(library.entries.count == declared)
        #expect(library.errorCount == 0)
    }

    @Test func jabRefAndZoteroFilesKeepTheirGroupComments() throws {
        let library = Fixtures.library(at: Fixtures.corpus("bib/biber/t_tdata_tool.bib"))
        #expect(library.files[0].comments.contains { $0.text.contains("jabref-meta") })
    }
}
