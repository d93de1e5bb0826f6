import BibreadTestSupport
@testable import DiskIO
import Foundation
import PDFText
import Testing

/// A PDF path that is a FIFO (or a directory, or a FIFO put there after the path was looked at):
/// refused at once with what it is, never opened so that it blocks (issue 26, item 6: opening a
/// FIFO waited for a writer for good, in `bibread read` and in the reader).
@Suite("PDFs that are not regular files")
struct NonRegularFileTests {
    @Test func aFIFOIsRefusedAtOnce() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("paper.pdf")
        try FIFO.make(at: fifo)
        let link = folder.appendingPathComponent("link.pdf")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: fifo)
        for path in [fifo.path, link.path] {
            let outcome = FIFO.outcome(unblocking: fifo) {
                return "opened \(try PDFDocument(path: path).pageCount) pages"
            }
            #expect(outcome == "\(path): not a regular file (a FIFO)", "\(outcome ?? "blocked until a writer came")")
            let fingerprint = FIFO.outcome(unblocking: fifo) {
                return try PDFFingerprint.of(path: path)
            }
            #expect(fingerprint == "\(path): not a regular file (a FIFO)", "\(fingerprint ?? "blocked until a writer came")")
        }
    }

    @Test func aDirectoryIsNotAPDF() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: PDFError.notRegularFile(path: folder.path, kind: "a directory")) { try PDFDocument(path: folder.path) }
    }

    @Test("A FIFO put in place after the path was looked at is refused by the open itself, without blocking")
    func aFIFOSwappedInAfterTheLookDoesNotBlock() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("paper.pdf")
        try FIFO.make(at: fifo)
        let outcome = FIFO.outcome(unblocking: fifo) {
            let descriptor = try RegularFile.openChecked(fifo.path)
            close(descriptor)
            return "opened"
        }
        #expect(outcome == "not a regular file (a FIFO)", "\(outcome ?? "blocked until a writer came")")
    }

    @Test func aRegularFileOpensBlocking() throws {
        let descriptor = try RegularFile.openForReading(samplePDF("incompleteness.pdf"))
        defer { close(descriptor) }
        #expect(fcntl(descriptor, F_GETFL) & O_NONBLOCK == 0)
        #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0)
    }

    /// `readAll` (the machine id, a kept page): the whole file up to its limit, an error past it
    /// or for a missing file, and a FIFO refused without waiting for a writer.
    @Test func readAllReadsTheWholeFileUpToItsLimit() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("id")
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: file)
        #expect(try RegularFile.readAll(file.path, limit: bytes.count) == bytes)
        #expect(throws: RegularFileError.tooLarge(limit: bytes.count - 1)) { try RegularFile.readAll(file.path, limit: bytes.count - 1) }
        let empty = folder.appendingPathComponent("empty")
        try Data().write(to: empty)
        #expect(try RegularFile.readAll(empty.path, limit: 0) == [])
        #expect(throws: RegularFileError.system(ENOENT)) { try RegularFile.readAll(folder.appendingPathComponent("none").path, limit: 10) }
        let fifo = folder.appendingPathComponent("fifo")
        try FIFO.make(at: fifo)
        let outcome = FIFO.outcome(unblocking: fifo) {
            return "read \(try RegularFile.readAll(fifo.path, limit: 10).count) bytes"
        }
        #expect(outcome == "not a regular file (a FIFO)", "\(outcome ?? "blocked until a writer came")")
    }
}
