import BibreadTestSupport
import Foundation
import Synchronization
import Testing
@testable import Reader

/// The library files' watcher: a change another program makes is reported once it settles, and
/// only for the library's own files.
@Suite("library watcher", .onOwnThreads)
struct LibraryWatcherTests {
    @Test func aFileRenamedOverTheLibraryOrWrittenInPlaceIsReportedOthersAreNot() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("library.bib")
        try "@book{a, title = {A}}\n".write(to: library, atomically: true, encoding: .utf8)
        let reports = Mutex<[[String]]>([])
        let watcher = try #require(LibraryWatcher(paths: [library.path], settle: 0.2) { paths in reports.withLock { $0.append(paths) } })
        defer { watcher.stop() }

        // Another file in the folder is none of its business.
        try "x".write(to: folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        try await Task.sleep(for: .milliseconds(700))
        #expect(reports.withLock { $0 }.isEmpty)

        // An editor's save: a new file renamed over the library (several events, one report).
        try "@book{a, title = {A}}\n@book{b, title = {B}}\n".write(to: library, atomically: true, encoding: .utf8)
        try await waitFor { reports.withLock { $0.count } == 1 }
        #expect(reports.withLock { $0 } == [[library.standardizedFileURL.path]])

        // Written in place.
        let handle = try FileHandle(forWritingTo: library)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("@book{c, title = {C}}\n".utf8))
        try handle.close()
        try await waitFor { reports.withLock { $0.count } == 2 }

        // Stopped: nothing more is reported.
        watcher.stop()
        try await Task.sleep(for: .milliseconds(400))
        try "@book{d, title = {D}}\n".write(to: library, atomically: true, encoding: .utf8)
        try await Task.sleep(for: .milliseconds(700))
        #expect(reports.withLock { $0.count } == 2)
    }

    /// A sync writes the .bib and has it read again: by the time the watcher would report,
    /// the files are as last read, and there is nothing to report (a late report overwrote the
    /// sync's own message, once in a full run).
    @Test func aChangeAlreadyReadAgainIsNotReported() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("library.bib")
        try "@book{a, title = {A}}\n".write(to: library, atomically: true, encoding: .utf8)
        let reports = Mutex<Int>(0)
        let watcher = try #require(LibraryWatcher(paths: [library.path], settle: 0.5) { _ in reports.withLock { $0 += 1 } })
        defer { watcher.stop() }
        try "@book{a, title = {A}}\n@book{b, title = {B}}\n".write(to: library, atomically: true, encoding: .utf8)
        watcher.noteRead()
        try await Task.sleep(for: .milliseconds(1200))
        #expect(reports.withLock { $0 } == 0)
    }

    private func waitFor(_ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            guard Date() < deadline else {
                Issue.record("timed out")
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
