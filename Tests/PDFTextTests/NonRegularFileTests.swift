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
            let outcome = FIFO.call(unblocking: fifo) { () -> String in
                do {
                    return "opened \(try PDFDocument(path: path).pageCount) pages"
                } catch {
                    return "\(error)"
                }
            }
            #expect(outcome == "\(path): not a regular file (a FIFO)", "\(outcome ?? "blocked until a writer came")")
            let fingerprint = FIFO.call(unblocking: fifo) { () -> String in
                do {
                    return try PDFFingerprint.of(path: path)
                } catch {
                    return "\(error)"
                }
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
        let outcome = FIFO.call(unblocking: fifo) { () -> String in
            do {
                let descriptor = try RegularFile.openChecked(fifo.path)
                close(descriptor)
                return "opened"
            } catch {
                return "\(error)"
            }
        }
        #expect(outcome == "not a regular file (a FIFO)", "\(outcome ?? "blocked until a writer came")")
    }

    @Test func aRegularFileOpensBlocking() throws {
        let descriptor = try RegularFile.openForReading(samplePDF("incompleteness.pdf"))
        defer { close(descriptor) }
        #expect(fcntl(descriptor, F_GETFL) & O_NONBLOCK == 0)
        #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0)
    }
}
