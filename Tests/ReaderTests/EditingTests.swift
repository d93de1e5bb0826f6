import BibModel
import BibreadTestSupport
import Foundation
import Testing
@testable import Reader
@testable import ReaderCore

/// The reader's edits: shown at once, written in the background through `LibraryEditing`,
/// confirmed once durable, put back when the write fails; `x`, `*`, `e`, `E`, `u`.
@Suite("editing in the reader")
struct EditingTests {
    /// BibDesk's (its header, `Date-Modified`), with `@string`s: three references.
    static let bibDesk = "bib/zotero-bbt/import_zbb__quietly__chokes_on_this_.bib__664.bib"
    /// JabRef 5's, ISO-8859-1 with CRLF line endings, explicit groups: seven references.
    static let jabRef = "bib/zotero-bbt/import_Jabref_import_-_groups_lost__1730-5.bib"

    /// A copy of a corpus file in a folder of its own, and a harness on it with `key` selected.
    struct Copy {
        let folder: URL
        let bib: URL
        var harness: ReaderHarness

        init(_ corpus: String, selecting key: String) throws {
            folder = try Fixtures.temporaryDirectory()
            bib = folder.appendingPathComponent("library.bib")
            try FileManager.default.copyItem(at: Fixtures.corpus(corpus), to: bib)
            harness = ReaderHarness(library: Fixtures.library(at: bib), paths: [bib.path], width: 120, height: 40,
                                    editState: folder.appendingPathComponent("state"))
            let path = bib.path
            harness.reload = {
                let library = Fixtures.library(at: URL(fileURLWithPath: path))
                return (library, BackgroundWork(library: library, groups: GroupCatalog.savedGroups(of: library, synced: false),
                                                now: ReaderHarness.now, fullTextURL: nil))
            }
            select(key)
        }

        mutating func select(_ key: String) {
            harness.press("/")
            harness.type("key:\(key)")
            harness.press("Enter")
        }

        var text: String { (try? String(contentsOf: bib, encoding: .isoLatin1)) ?? "" }

        /// The position of `key` in the library shown, and its list marks.
        func marks(of key: String) -> ReferenceMarks? {
            guard let position = harness.state.library?.positions(ofKey: key).first else { return nil }
            return harness.state.marks?[position]
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    private static let unread = GroupID.builtIn(.unread)

    @Test func xShowsReadAtOnceThenSaysSavedOnceWritten() throws {
        var copy = try Copy(Self.bibDesk, selecting: "Acemoglu2003Whynotpolitical")
        defer { copy.remove() }
        let unreadBefore = try #require(copy.harness.state.groupCounts[Self.unread])
        #expect(copy.marks(of: "Acemoglu2003Whynotpolitical")?.contains(.read) == false)

        // The key alone: the screen changes before anything is written.
        let effects = copy.harness.state.update(.key(.character("x")))
        #expect(copy.marks(of: "Acemoglu2003Whynotpolitical")?.contains(.read) == true, "✓ at once")
        #expect(copy.harness.state.groupCounts[Self.unread] == unreadBefore - 1, "Unread follows at once")
        #expect(copy.harness.state.message?.text == "Saving Acemoglu2003Whynotpolitical…")
        #expect(!copy.text.contains("Read = {1}"), "nothing written yet")
        #expect(effects.contains { if case .editing(.write) = $0 { true } else { false } })

        copy.harness.run(effects)
        let message = try #require(copy.harness.state.message?.text)
        #expect(message.hasPrefix("Saved: Acemoglu2003Whynotpolitical: Read: added 1"), "\(message)")
        #expect(copy.text.contains("  Read = {1},\n") || copy.text.contains("Read = {1}"), "BibDesk's field, in the entry's style")
        #expect(copy.harness.screen.contains("✓"))

        // x again: unread, in BibDesk's way (Read = 0).
        copy.harness.press("x")
        #expect(copy.marks(of: "Acemoglu2003Whynotpolitical")?.contains(.read) == false)
        #expect(copy.harness.state.groupCounts[Self.unread] == unreadBefore)
        #expect(copy.text.contains("Read = {0}"))
    }

    @Test func jabRefLibrariesGetReadstatusAndTheUnreadGroupHonoursIt() throws {
        var copy = try Copy(Self.jabRef, selecting: "Marvin2020")
        defer { copy.remove() }
        let unreadBefore = try #require(copy.harness.state.groupCounts[Self.unread])
        #expect(unreadBefore == 4)
        copy.harness.press("x")
        #expect(copy.harness.state.message?.text.hasPrefix("Saved: Marvin2020: readstatus: added read") == true,
                "\(copy.harness.state.message?.text ?? "")")
        #expect(copy.text.contains("readstatus = {read},\r\n") || copy.text.contains("readstatus = {read}\r\n"), "CRLF kept")

        // Read again from disk: JabRef's readstatus counts as read (the ✓, the Unread group).
        let reread = ReaderHarness(library: Fixtures.library(at: copy.bib), paths: [copy.bib.path], width: 120, height: 40)
        #expect(reread.state.groupCounts[Self.unread] == unreadBefore - 1)
        let position = try #require(reread.state.library?.positions(ofKey: "Marvin2020").first)
        #expect(reread.state.marks?[position].contains(.read) == true)
    }

    @Test func jabRefsReadstatusIsReadInTheUnreadGroupAndTheMarks() throws {
        // JabRef marks a reference read with `readstatus = {read}` (`skimmed` is not read).
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bib = folder.appendingPathComponent("library.bib")
        let text = try String(contentsOf: Fixtures.corpus(Self.jabRef), encoding: .isoLatin1)
            .replacingOccurrences(of: "@InProceedings{Marvin2020,\r\n", with: "@InProceedings{Marvin2020,\r\n  readstatus = {read},\r\n")
            .replacingOccurrences(of: "@Article{Xie2020,\r\n", with: "@Article{Xie2020,\r\n  readstatus = {skimmed},\r\n")
        try text.write(to: bib, atomically: true, encoding: .isoLatin1)
        let harness = ReaderHarness(library: Fixtures.library(at: bib), paths: [bib.path], width: 120, height: 40)
        #expect(harness.state.groupCounts[Self.unread] == 3, "4 references, 1 read")
        let marvin = try #require(harness.state.library?.positions(ofKey: "Marvin2020").first)
        let xie = try #require(harness.state.library?.positions(ofKey: "Xie2020").first)
        #expect(harness.state.marks?[marvin].contains(.read) == true)
        #expect(harness.state.marks?[xie].contains(.read) == false)
    }

    @Test func aZoteroExportIsRefusedAndNothingChanges() throws {
        var copy = try Copy("bib/zotero-bbt/export_Better_BibTeX_does_not_export_collections__901.bibtex",
                            selecting: "Agassi-1982-Scientificphilosophytoday")
        defer { copy.remove() }
        let before = copy.text
        copy.harness.press("x")
        let message = try #require(copy.harness.state.message)
        #expect(message.isError)
        #expect(message.text.contains("is a Zotero export"), "\(message.text)")
        #expect(copy.text == before)
        #expect(copy.harness.state.marks?.allSatisfy { !$0.contains(.read) } == true)
    }

    @Test func aFailedWriteIsPutBackAndSaysWhy() throws {
        var copy = try Copy(Self.bibDesk, selecting: "Acemoglu2003Whynotpolitical")
        defer { copy.remove() }
        let effects = copy.harness.state.update(.key(.character("x")))
        #expect(copy.marks(of: "Acemoglu2003Whynotpolitical")?.contains(.read) == true)
        // Another program takes the reference out of the file before the write.
        let text = try String(contentsOf: copy.bib, encoding: .utf8)
        try text.replacingOccurrences(of: "@article{Acemoglu2003Whynotpolitical", with: "@article{Renamed2003")
            .write(to: copy.bib, atomically: true, encoding: .utf8)
        copy.harness.run(effects)
        let message = try #require(copy.harness.state.message)
        #expect(message.isError)
        #expect(message.text.hasPrefix("Not saved: Acemoglu2003Whynotpolitical: "), "\(message.text)")
        #expect(copy.marks(of: "Acemoglu2003Whynotpolitical")?.contains(.read) == false, "put back")
    }

    @Test func starThenADigitRates() throws {
        var copy = try Copy(Self.bibDesk, selecting: "Acemoglu2003Whynotpolitical")
        defer { copy.remove() }
        copy.harness.press("*")
        #expect(copy.harness.screen.contains("Rate Acemoglu2003Whynotpolitical: 0 (none) to 5"))
        copy.harness.press("4")
        #expect(copy.harness.state.message?.text == "Acemoglu2003Whynotpolitical: already so; nothing to change")
        copy.harness.press("*", "5")
        #expect(copy.text.contains("Rating = {5}"))
        #expect(copy.harness.state.message?.text.hasPrefix("Saved: Acemoglu2003Whynotpolitical: Rating: 4 → 5") == true, "\(copy.harness.state.message?.text ?? "")")
        copy.harness.press("*", "Esc")
        #expect(copy.text.contains("Rating = {5}"), "Esc leaves it")
    }

    @Test func eEditsAFieldWithCompletionAndRemovesAnEmptiedOne() throws {
        var copy = try Copy(Self.bibDesk, selecting: "Acemoglu2003Whynotpolitical")
        defer { copy.remove() }
        copy.harness.press("e")
        copy.harness.type("jo")
        copy.harness.press("Tab")
        #expect(copy.harness.screen.contains("Edit which field of Acemoglu2003Whynotpolitical (Tab completes): Journal"))
        copy.harness.press("Enter")
        #expect(copy.harness.screen.contains("Journal = Journal of Comparative"), "prefilled with its value")
        copy.harness.press("C-u")
        copy.harness.type("Journal of Politics")
        copy.harness.press("Enter")
        #expect(copy.text.contains("Journal = {Journal of Politics}"))
        #expect(copy.harness.state.message?.text.hasPrefix("Saved: Acemoglu2003Whynotpolitical: Journal: ") == true)

        copy.harness.press("e")
        copy.harness.type("Issn")
        copy.harness.press("Enter", "C-u", "Enter")
        #expect(copy.harness.screen.contains("Remove the field Issn of Acemoglu2003Whynotpolitical? (y/n)"))
        copy.harness.press("y")
        #expect(!copy.text.contains("Issn"))
    }

    @Test func bigEOpensTheEntryInTheEditorRefusesABrokenOneAndWritesTheFix() throws {
        var copy = try Copy(Self.bibDesk, selecting: "Acemoglu2003Whynotpolitical")
        defer { copy.remove() }
        var tries = 0
        copy.harness.editor = { text in
            tries += 1
            if tries == 1 {
                // A brace lost: the entry does not parse.
                return text.text.replacingOccurrences(of: "Author = {Acemoglu, Daron},", with: "Author = {Acemoglu, Daron,")
            }
            return text.text.replacingOccurrences(of: "Author = {Acemoglu, Daron,", with: "Author = {Acemoglu, Daron K.},")
        }
        copy.harness.press("E")
        let texts = copy.harness.editorTexts
        #expect(texts.count == 2, "refused, then opened again")
        #expect(texts.first?.text.hasPrefix("@article{Acemoglu2003Whynotpolitical,") == true)
        let problem = try #require(texts.last?.problem)
        #expect(problem.hasPrefix("Acemoglu2003Whynotpolitical.bib:"), "\(problem)")
        #expect(problem.split(separator: ":").count >= 4, "file:line:col: what")
        #expect(copy.text.contains("Author = {Acemoglu, Daron K.},"))
        #expect(copy.harness.state.message?.text.hasPrefix("Saved: Acemoglu2003Whynotpolitical: Author: ") == true)

        // Saved unchanged: nothing is written.
        let before = copy.text
        copy.harness.editor = { $0.text }
        copy.harness.press("E")
        #expect(copy.harness.state.message?.text == "Acemoglu2003Whynotpolitical: nothing changed")
        #expect(copy.text == before)
    }

    @Test func uAsksThenUndoesTheLastEdit() throws {
        var copy = try Copy(Self.bibDesk, selecting: "Acemoglu2003Whynotpolitical")
        defer { copy.remove() }
        let original = copy.text
        copy.harness.press("x")
        #expect(copy.text != original)
        copy.harness.press("u")
        #expect(copy.harness.screen.contains("Undo 'mark read Acemoglu2003Whynotpolitical' of "))
        copy.harness.press("n")
        #expect(copy.text != original)
        copy.harness.press("u", "y")
        #expect(copy.text == original)
        #expect(copy.harness.state.message?.text.hasPrefix("Undid 'mark read Acemoglu2003Whynotpolitical'") == true)
        #expect(copy.marks(of: "Acemoglu2003Whynotpolitical")?.contains(.read) == false, "read again from disk")
        copy.harness.press("u")
        #expect(copy.harness.state.message?.text.hasPrefix("Nothing to undo") == true)
    }

    @Test func xInTheReadingViewMarksThePaperBeingRead() throws {
        // A copy of the samples (the library and its PDFs), so that the paper opens.
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = folder.appendingPathComponent("Samples")
        try FileManager.default.copyItem(at: Fixtures.samples, to: samples)
        let bib = samples.appendingPathComponent("library.bib")
        var harness = ReaderHarness(library: Fixtures.library(at: bib), paths: [bib.path], width: 120, height: 40,
                                    editState: folder.appendingPathComponent("state"))
        harness.read("knuth1984texbook")
        try #require(harness.state.reading?.pageText != nil)
        harness.press("x")
        #expect(harness.state.reading != nil, "still reading")
        #expect(harness.state.message?.text.hasPrefix("Saved: knuth1984texbook: Read: 1 → 0") == true, "\(harness.state.message?.text ?? "")")
        let text = try String(contentsOf: bib, encoding: .utf8)
        let entry = try #require(Library.parse([(path: bib.path, bytes: Array(text.utf8))]).entry(at: "knuth1984texbook"))
        #expect(entry.raw("read") == "0", "it was read: x marks it unread")
    }

    @Test func qWhileAnEditIsWrittenQuitsOnceItIs() throws {
        var copy = try Copy(Self.bibDesk, selecting: "Acemoglu2003Whynotpolitical")
        defer { copy.remove() }
        let write = copy.harness.state.update(.key(.character("x")))
        let quit = copy.harness.state.update(.key(.character("q")))
        #expect(!quit.contains(.app(.quit)), "not while the edit is written")
        #expect(copy.harness.state.message?.text == "Saving 1 edit before quitting…")
        copy.harness.run(write)
        #expect(copy.harness.state.isQuitting)
        #expect(copy.text.contains("Read = {1}"))
    }

    @Test func anotherProgramsChangeWhileAnEditWaitsIsKeptAndShown() throws {
        var copy = try Copy(Self.bibDesk, selecting: "Acemoglu2003Whynotpolitical")
        defer { copy.remove() }
        let write = copy.harness.state.update(.key(.character("x")))
        // Another program (an editor) changes another reference meanwhile, and the watcher says so.
        let text = try String(contentsOf: copy.bib, encoding: .utf8)
        try text.replacingOccurrences(of: "Author = {Acemoglu, Daron},", with: "Author = {Acemoglu, Daron},\n  Note = {from the editor},")
            .write(to: copy.bib, atomically: true, encoding: .utf8)
        copy.harness.send(.libraryChangedOnDisk([copy.bib.path]))
        copy.harness.run(write)
        #expect(copy.text.contains("Note = {from the editor}"), "the other program's change survives")
        #expect(copy.text.contains("Read = {1}"), "and the edit")
        #expect(copy.harness.state.library?.entry(at: "Acemoglu2003Whynotpolitical")?.raw("note") == "from the editor",
                "read again once written")
        #expect(copy.marks(of: "Acemoglu2003Whynotpolitical")?.contains(.read) == true)
    }
}
