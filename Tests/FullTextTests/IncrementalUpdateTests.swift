import BibreadTestSupport
import Foundation
@testable import FullText
import Testing

@Suite("incremental updates")
struct IncrementalUpdateTests {
    @Test func anUnchangedLibraryIsNotReadAgain() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let paths = try samplePDFs.prefix(3).enumerated().map { try workspace.copy($1, as: "paper\($0).pdf") }
        let first = try workspace.index.update(paths: paths)
        #expect(first.read == 3 && first.unchanged == 0 && first.failed.isEmpty)
        let phrase = try #require(distinctivePhrase(in: try pdftotext(paths[1], page: 1)))

        let second = try workspace.index.update(paths: paths)
        #expect(second.read == 0 && second.mapped == 0 && second.removed == 0 && second.documentsDeleted == 0)
        #expect(second.unchanged == 3 && second.pages == 0 && second.failed.isEmpty)

        // Proof that no file is opened: replace one with garbage of the same size and give it
        // back its modification time. Opening it would fail (or change its fingerprint).
        let time = try #require(modificationTime(paths[1]))
        let size = try #require(FileManager.default.attributesOfItem(atPath: paths[1])[.size] as? Int)
        try Data(repeating: 0x41, count: size).write(to: URL(fileURLWithPath: paths[1]))
        try setModificationTime(paths[1], time)
        let third = try workspace.index.update(paths: paths)
        #expect(third.unchanged == 3 && third.read == 0 && third.failed.isEmpty)
        #expect(try workspace.index.failures().isEmpty)
        #expect(try workspace.index.paths(matching: [phrase], phrase: true).contains(paths[1]))
    }

    @Test func aChangedFileIsReadAgainAndItsOldTextDropsOut() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let path = try workspace.copy(samplePDF("incompleteness.pdf"), as: "paper.pdf")
        let other = try workspace.copy(samplePDF("tex-tour.pdf"), as: "other.pdf")
        try workspace.index.update(paths: [path, other])
        let oldPhrase = try #require(distinctivePhrase(in: try pdftotext(samplePDF("incompleteness.pdf"), page: 2)))
        let newPhrase = try #require(distinctivePhrase(in: try pdftotext(samplePDF("shortest-paths.pdf"), page: 3)))
        #expect(try workspace.index.paths(matching: [oldPhrase], phrase: true) == [path])

        try workspace.copy(samplePDF("shortest-paths.pdf"), as: "paper.pdf")
        let summary = try workspace.index.update(paths: [path, other])
        #expect(summary.read == 1 && summary.unchanged == 1 && summary.documentsDeleted == 1 && summary.pages == 4)
        #expect(try workspace.index.paths(matching: [oldPhrase], phrase: true).isEmpty)
        #expect(try workspace.index.paths(matching: [newPhrase], phrase: true) == [path])
        #expect(try workspace.index.statistics() == (2, 4 + 5))
        try workspace.index.checkIntegrity()
    }

    @Test func aTouchedFileIsOnlyMapped() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let path = try workspace.copy(samplePDF("line-breaking.pdf"), as: "paper.pdf")
        try workspace.index.update(paths: [path])
        try setModificationTime(path, timespec(tv_sec: 1_000_000_000, tv_nsec: 5))
        let summary = try workspace.index.update(paths: [path])
        #expect(summary.read == 0 && summary.mapped == 1 && summary.unchanged == 0 && summary.documentsDeleted == 0)
        #expect(try workspace.index.update(paths: [path]).unchanged == 1)
    }

    @Test func aCopyOrAMoveIsMappedNotRead() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let path = try workspace.copy(samplePDF("information-theory.pdf"), as: "paper.pdf")
        try workspace.index.update(paths: [path])
        let phrase = try #require(distinctivePhrase(in: try pdftotext(path, page: 1)))

        let copy = try workspace.copy(path, as: "copy.pdf")
        let copied = try workspace.index.update(paths: [path, copy])
        #expect(copied.read == 0 && copied.mapped == 1 && copied.unchanged == 1)
        #expect(try workspace.index.paths(matching: [phrase], phrase: true) == [path, copy])
        let hits = try workspace.index.hits(words: [phrase], phrase: true, in: nil)
        #expect(Set(hits.keys) == [path, copy] && hits[path] == hits[copy])
        #expect(hits[path]?.first?.paths == [copy, path])

        let moved = workspace.path("moved.pdf")
        try FileManager.default.moveItem(atPath: path, toPath: moved)
        let summary = try workspace.index.update(paths: [moved, copy])
        #expect(summary.read == 0 && summary.removed == 1 && summary.documentsDeleted == 0)
        #expect(try workspace.index.paths(matching: [phrase], phrase: true) == [moved, copy])
        #expect(try workspace.index.statistics().documents == 1)
    }

    @Test func twoNewCopiesAreReadOnce() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let one = try workspace.copy(samplePDF("tex-tour.pdf"), as: "one.pdf")
        let two = try workspace.copy(samplePDF("tex-tour.pdf"), as: "two.pdf")
        let summary = try workspace.index.update(paths: [one, two, one])
        #expect(summary.read == 1 && summary.pages == 5)
        #expect(try workspace.index.isIndexed(path: one) && workspace.index.isIndexed(path: two))
    }

    @Test func aPurgedFileDropsOutOfTheResults() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let kept = try workspace.copy(samplePDF("incompleteness.pdf"), as: "kept.pdf")
        let purged = try workspace.copy(samplePDF("shortest-paths.pdf"), as: "purged.pdf")
        let dropped = try workspace.copy(samplePDF("tex-tour.pdf"), as: "dropped.pdf")
        try workspace.index.update(paths: [kept, purged, dropped])
        let purgedPhrase = try #require(distinctivePhrase(in: try pdftotext(purged, page: 3)))
        #expect(try workspace.index.search(words: [purgedPhrase], phrase: true).contains { $0.paths == [purged] })
        #expect(try workspace.index.search(words: ["the"], phrase: false, limit: 1_000).contains { $0.paths == [dropped] })

        // The cache purges a file: the library still lists it, the disk no longer has it.
        try FileManager.default.removeItem(atPath: purged)
        let summary = try workspace.index.update(paths: [kept, purged])
        #expect(summary.removed == 2 && summary.documentsDeleted == 2 && summary.unchanged == 1 && summary.read == 0)
        #expect(try workspace.index.search(words: [purgedPhrase], phrase: true).isEmpty)
        let remaining = try workspace.index.search(words: ["the"], phrase: false, limit: 1_000)
        #expect(!remaining.isEmpty && remaining.allSatisfy { $0.paths == [kept] })
        #expect(try workspace.index.statistics() == (1, 11))
        #expect(try !workspace.index.isIndexed(path: purged))
        try workspace.index.checkIntegrity()

        // Downloaded again: read again.
        try workspace.copy(samplePDF("shortest-paths.pdf"), as: "purged.pdf")
        #expect(try workspace.index.update(paths: [kept, purged]).read == 1)
        #expect(try workspace.index.search(words: [purgedPhrase], phrase: true).contains { $0.paths == [purged] })
    }

    @Test func unreadablePDFsAreReportedOnceAndDoNotStopTheOthers() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let good = try workspace.copy(samplePDF("incompleteness.pdf"), as: "good.pdf")
        let encrypted = workspace.path("encrypted.pdf")
        try runTool("qpdf", ["--encrypt", "u", "o", "256", "--", samplePDF("tex-tour.pdf"), encrypted], allowed: [0, 3])
        let damaged = workspace.path("damaged.pdf")
        try Data("%PDF-1.4\nnot really a PDF\n".utf8).write(to: URL(fileURLWithPath: damaged))
        let other = try workspace.copy(samplePDF("line-breaking.pdf"), as: "other.pdf")

        let first = try workspace.index.update(paths: [encrypted, good, damaged, other])
        #expect(first.read == 2 && first.pages == 11 + 4)
        #expect(Set(first.failed.keys) == [encrypted, damaged])
        #expect(first.failed[encrypted]?.contains("encrypted") == true)
        #expect(try workspace.index.failures() == first.failed)

        let second = try workspace.index.update(paths: [encrypted, good, damaged, other])
        #expect(second.failed.isEmpty && second.unchanged == 4 && second.read == 0)
        #expect(try workspace.index.failures().count == 2)

        // Decrypted: it changed, so it is read.
        try workspace.copy(samplePDF("tex-tour.pdf"), as: "encrypted.pdf")
        let third = try workspace.index.update(paths: [encrypted, good, damaged, other])
        #expect(third.read == 1 && third.failed.isEmpty && third.unchanged == 3)
        #expect(try workspace.index.failures().keys.sorted() == [damaged])
    }

    @Test func missingPathsThatWereNeverIndexedAreIgnored() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let summary = try workspace.index.update(paths: [workspace.path("not-downloaded.pdf"), workspace.folder.path])
        #expect(summary == {
            var expected = IndexSummary()
            expected.seconds = summary.seconds
            return expected
        }())
    }

    @Test func progressCountsTheDocumentsAndPages() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let paths = try samplePDFs.enumerated().map { try workspace.copy($1, as: "paper\($0).pdf") }
        var reports: [IndexProgress] = []
        let summary = try workspace.index.update(paths: paths, workers: 3, priority: .background, progress: { reports.append($0) })
        #expect(reports.map(\.done) == Array(0...5))
        #expect(reports.allSatisfy { $0.total == 5 })
        #expect(reports.last?.pages == 11 + 3 + 4 + 4 + 5 && summary.pages == 27)
        #expect(reports.first?.currentPath == nil && Set(reports.dropFirst().compactMap(\.currentPath)) == Set(paths))
    }
}
