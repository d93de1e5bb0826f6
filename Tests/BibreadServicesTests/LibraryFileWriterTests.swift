import BibreadTestSupport
import Checksums
import Foundation
import Testing
@testable import BibreadServices

#if canImport(Glibc)
import Glibc
#endif

/// `LibraryFileWriter` on real files: what it writes, what it keeps, and what it refuses
/// (issue 28, "Atomic and checked" and "Someone else wrote the file meanwhile"). The tests that
/// kill a writer, run two at once or write on a read-only disk are in CLITests
/// (`LibraryWriteProcessTests`), with real processes.
@Suite("library file writer")
final class LibraryFileWriterTests {
    let folder: URL
    let state: URL
    let library: URL

    init() throws {
        folder = try Fixtures.temporaryDirectory()
        state = folder.appendingPathComponent("state/bibread")
        library = folder.appendingPathComponent("papers/library.bib")
        try FileManager.default.createDirectory(at: library.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(Self.original.utf8).write(to: library)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    static let original = "@article{knuth1984,\n  title = {Literate Programming},\n  year = 1984\n}\n"

    var writer: LibraryFileWriter { LibraryFileWriter(state: state) }

    /// Appends `line` to the bytes given: an edit whose result shows what it was applied to.
    static func appending(_ line: String) -> ([UInt8]) -> [UInt8] {
        { $0 + Array(line.utf8) }
    }

    func contents() throws -> String {
        try String(contentsOf: library, encoding: .utf8)
    }

    /// What is beside the library besides itself (temporary files left would show here).
    func strays() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: library.deletingLastPathComponent().path).filter { $0 != "library.bib" }
    }

    func status(_ path: String) -> stat {
        var status = stat()
        stat(path, &status)
        return status
    }

    @discardableResult
    func edit(_ line: String, command: String = "test edit") throws -> LibraryWrite {
        let (_, stamp) = try LoadedFileStamp.read(library.path)
        return try writer.write(path: library.path, loaded: stamp, command: command, transform: Self.appending(line)) { _, _ in }
    }

    @Test("An edit is written in place, checked first, with the file's permissions (0640 stays 0640) and owner, nothing left beside it")
    func writesCheckedKeepingPermissionsAndOwner() throws {
        chmod(library.path, 0o640)
        // Root may give the file away: then it must stay the other user's.
        let owner: (uid_t, gid_t) = geteuid() == 0 ? (1234, 2345) : (geteuid(), getegid())
        if geteuid() == 0 { chown(library.path, owner.0, owner.1) }
        let (loadedBytes, stamp) = try LoadedFileStamp.read(library.path)
        var checked: (old: [UInt8], new: [UInt8])?
        let outcome = try writer.write(path: library.path, loaded: stamp, command: "mark read knuth1984",
                                       transform: Self.appending("% read\n")) { old, new in checked = (old, new) }
        #expect(try contents() == Self.original + "% read\n")
        #expect(checked?.old == loadedBytes)
        #expect(checked?.new == Array((Self.original + "% read\n").utf8))
        #expect(outcome.wrote && outcome.externalChange == nil)
        #expect(outcome.bytes == Array(try contents().utf8))
        #expect(outcome.stamp == (try LoadedFileStamp.read(library.path)).stamp)
        let after = status(library.path)
        #expect(after.st_mode & 0o7777 == 0o640, "mode \(String(after.st_mode & 0o7777, radix: 8))")
        #expect(after.st_uid == owner.0 && after.st_gid == owner.1, "owner \(after.st_uid):\(after.st_gid)")
        let strays = try strays()
        #expect(strays.isEmpty, "left beside the library: \(strays)")
        let history = try writer.history(path: library.path)
        #expect(history.map(\.command) == ["mark read knuth1984"])
        #expect(history.first?.before == stamp.contentHash)
        #expect(history.first?.after == outcome.stamp.contentHash)
    }

    @Test("Someone else wrote the file after it was loaded: the edit is applied to the bytes found, both changes are kept, and it is reported")
    func externalWriteBetweenLoadAndWrite() throws {
        let (_, stamp) = try LoadedFileStamp.read(library.path)
        // Another program (a shell, as an editor or a sync client would) appends an entry.
        let other = "@book{lamport1994,\n  title = {LaTeX}\n}\n"
        let shell = try ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "printf '%s' \"$1\" >> \"$2\"", "sh", other, library.path])
        #expect(shell.status == 0)
        var given: [UInt8] = []
        let outcome = try writer.write(path: library.path, loaded: stamp, command: "tag knuth1984", transform: { current in
            given = current
            return current + Array("% tagged\n".utf8)
        }, check: { _, _ in })
        #expect(given == Array((Self.original + other).utf8), "the transform was given the bytes loaded, not the file's")
        #expect(try contents() == Self.original + other + "% tagged\n")
        let change = try #require(outcome.externalChange, "the external write was not reported")
        #expect(change.loaded == stamp)
        #expect(change.found.size == Int64((Self.original + other).utf8.count))
        #expect(stamp.differences(to: change.found).contains("\(stamp.size) bytes, now \(change.found.size)"))
    }

    @Test("A change of the same size with the old modification time put back is found by the content hash")
    func sameSizeAndTimeFoundByHash() throws {
        let (_, stamp) = try LoadedFileStamp.read(library.path)
        let changed = Self.original.replacingOccurrences(of: "1984", with: "1985")
        try Data(changed.utf8).write(to: library)
        var times = [timespec(tv_sec: Int(stamp.modifiedSeconds), tv_nsec: Int(stamp.modifiedNanoseconds)),
                     timespec(tv_sec: Int(stamp.modifiedSeconds), tv_nsec: Int(stamp.modifiedNanoseconds))]
        #expect(utimensat(AT_FDCWD, library.path, &times, 0) == 0)
        let (_, now) = try LoadedFileStamp.read(library.path)
        #expect(now.size == stamp.size && now.modifiedSeconds == stamp.modifiedSeconds && now.modifiedNanoseconds == stamp.modifiedNanoseconds)
        let outcome = try writer.write(path: library.path, loaded: stamp, command: "edit", transform: Self.appending("%\n")) { _, _ in }
        #expect(outcome.externalChange != nil)
        #expect(try contents() == changed + "%\n")
    }

    @Test("A check that fails stops the write: the file, its folder and the history are as they were, and the check's error comes back as it is")
    func failedCheckWritesNothing() throws {
        struct ParseFailure: Error, Equatable { let message: String }
        let (_, stamp) = try LoadedFileStamp.read(library.path)
        let before = status(library.path)
        #expect(throws: ParseFailure(message: "library.bib:5:1: error: unbalanced braces")) {
            try self.writer.write(path: self.library.path, loaded: stamp, command: "edit", transform: Self.appending("@misc{broken,\n")) { _, _ in
                throw ParseFailure(message: "library.bib:5:1: error: unbalanced braces")
            }
        }
        #expect(try contents() == Self.original)
        #expect(status(library.path).st_ino == before.st_ino, "the file was replaced")
        let strays = try strays()
        #expect(strays.isEmpty, "left beside the library: \(strays)")
        #expect(try writer.history(path: library.path).isEmpty)
    }

    @Test("An edit that changes nothing writes nothing and keeps no version")
    func unchangedWritesNothing() throws {
        let before = status(library.path)
        let (_, stamp) = try LoadedFileStamp.read(library.path)
        let outcome = try writer.write(path: library.path, loaded: stamp, command: "edit", transform: { $0 }, check: { _, _ in
            Issue.record("nothing to check: nothing is written")
        })
        #expect(!outcome.wrote)
        #expect(status(library.path).st_ino == before.st_ino)
        #expect(try writer.history(path: library.path).isEmpty)
    }

    @Test("undo puts back the version before each edit in turn, then says there is nothing to undo")
    func undoGoesBackEditByEdit() throws {
        try edit("% one\n", command: "one")
        try edit("% two\n", command: "two")
        let first = try writer.undo(path: library.path)
        #expect(first.edit.command == "two" && first.remaining == 1)
        #expect(try contents() == Self.original + "% one\n")
        #expect(first.bytes == Array(try contents().utf8))
        let second = try writer.undo(path: library.path)
        #expect(second.edit.command == "one" && second.remaining == 0)
        #expect(try contents() == Self.original)
        #expect(throws: LibraryWriteError.nothingToUndo(path: try resolved(library))) { try self.writer.undo(path: self.library.path) }
        #expect(try strays().isEmpty)
    }

    @Test("undo after someone else changed the file refuses, names what changed, and leaves the file alone")
    func undoAfterExternalEditRefused() throws {
        try edit("% mine\n", command: "rate knuth1984 4")
        let external = Self.original + "% mine\n% BibDesk saved this\n"
        try Data(external.utf8).write(to: library)
        let inode = status(library.path).st_ino
        do {
            _ = try writer.undo(path: library.path)
            Issue.record("undo went ahead over an external change")
        } catch let error as LibraryWriteError {
            guard case .changedSinceEdit(_, let edit, let now) = error else {
                Issue.record("undo failed otherwise: \(error)")
                return
            }
            #expect(edit.command == "rate knuth1984 4")
            #expect(now.size == Int64(external.utf8.count))
            let message = error.description
            #expect(message.contains("was changed since bibread's last edit of it ('rate knuth1984 4'"), "\(message)")
            #expect(message.contains("that edit left \(edit.afterSize) bytes, the file now has \(external.utf8.count) bytes"), "\(message)")
            #expect(message.contains("it was not undone"), "\(message)")
        }
        #expect(try contents() == external)
        #expect(status(library.path).st_ino == inode)
        #expect(try writer.history(path: library.path).count == 1, "the refused undo dropped the edit from the history")
    }

    @Test("The history keeps the last 10 edits, and fewer when their copies pass the size cap; undo goes back exactly that far")
    func historyIsBounded() throws {
        for index in 1...15 { try edit("% edit \(index)\n", command: "edit \(index)") }
        let history = try writer.history(path: library.path)
        #expect(history.map(\.command) == (6...15).map { "edit \($0)" })
        let historyFolder = try #require(try FileManager.default.contentsOfDirectory(
            at: state.appendingPathComponent("history"), includingPropertiesForKeys: nil).first)
        let copies = try FileManager.default.contentsOfDirectory(atPath: historyFolder.path).filter { $0.hasSuffix(".bib") }
        #expect(copies.count == 10, "\(copies.count) copies kept: \(copies)")
        for _ in 1...10 { _ = try writer.undo(path: library.path) }
        #expect(try contents() == Self.original + (1...5).map { "% edit \($0)\n" }.joined())
        #expect(throws: LibraryWriteError.self) { try self.writer.undo(path: self.library.path) }

        // A cap of three copies' worth of bytes keeps three edits.
        let capped = LibraryFileWriter(state: state, limits: .init(versions: 10, bytes: Int64(Self.original.utf8.count + 60) * 3))
        for index in 1...6 {
            let (_, stamp) = try LoadedFileStamp.read(library.path)
            try capped.write(path: library.path, loaded: stamp, command: "capped \(index)", transform: Self.appending("%\n")) { _, _ in }
        }
        #expect(try capped.history(path: library.path).map(\.command) == ["capped 4", "capped 5", "capped 6"])
        // The newest is kept whatever its size.
        let tiny = LibraryFileWriter(state: state, limits: .init(versions: 10, bytes: 1))
        let (_, stamp) = try LoadedFileStamp.read(library.path)
        try tiny.write(path: library.path, loaded: stamp, command: "tiny", transform: Self.appending("%\n")) { _, _ in }
        #expect(try tiny.history(path: library.path).map(\.command) == ["tiny"])
    }

    @Test("A library given through a symbolic link is written through it: the target gets the edit, the link stays a link, and both names share one history")
    func symlinkedLibraryWrittenThroughTheLink() throws {
        let link = folder.appendingPathComponent("link.bib")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "papers/library.bib")
        let (_, stamp) = try LoadedFileStamp.read(link.path)
        let outcome = try writer.write(path: link.path, loaded: stamp, command: "via link", transform: Self.appending("% linked\n")) { _, _ in }
        #expect(outcome.path == (try resolved(library)))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "papers/library.bib")
        #expect(try contents() == Self.original + "% linked\n")
        #expect(try writer.history(path: library.path).map(\.command) == ["via link"])
        _ = try writer.undo(path: library.path)
        #expect(try contents() == Self.original)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "papers/library.bib")
    }

    @Test("An edit kept in the history whose file never took the library's place (a writer killed before its rename) is dropped: undo goes to the edit before it, and the next edit follows that")
    func editThatNeverLandedIsSettled() throws {
        try edit("% one\n", command: "one")
        let landed = Array((Self.original + "% one\n").utf8)
        // What a writer killed between keeping the version before and its rename leaves: the
        // history names an edit whose bytes the file never held.
        let target = try resolved(library)
        let history = writer.history(of: target)
        let never = landed + Array("% never\n".utf8)
        try history.record(WriteHistoryEntry(command: "never", date: 0, before: SHA256.hex(of: landed), beforeSize: Int64(landed.count),
                                             after: SHA256.hex(of: never), afterSize: Int64(never.count)),
                           before: landed, after: history.entries())
        #expect(try writer.history(path: library.path).map(\.command) == ["one", "never"])
        try edit("% two\n", command: "two")
        #expect(try writer.history(path: library.path).map(\.command) == ["one", "two"])
        #expect(try writer.undo(path: library.path).edit.command == "two")
        // And an undo cut short after its rename leaves its edit the same way: settled too.
        try history.record(WriteHistoryEntry(command: "undone", date: 0, before: SHA256.hex(of: landed), beforeSize: Int64(landed.count),
                                             after: SHA256.hex(of: never), afterSize: Int64(never.count)),
                           before: landed, after: history.entries())
        #expect(try writer.undo(path: library.path).edit.command == "one")
        #expect(try contents() == Self.original)
    }

    @Test("A rename that fails (the file was replaced by a folder meanwhile) is an error naming the reason; the history does not keep the edit, nothing is left beside it")
    func failedRenameKeepsNoEdit() throws {
        try edit("% one\n", command: "one")
        let (_, stamp) = try LoadedFileStamp.read(library.path)
        let target = try resolved(library)
        #expect(throws: LibraryWriteError.writeFailed(path: target, reason: "Is a directory")) {
            try self.writer.write(path: self.library.path, loaded: stamp, command: "two", transform: Self.appending("% two\n")) { _, _ in
                // Another program puts a folder where the file was, after the check.
                try FileManager.default.removeItem(at: self.library)
                try FileManager.default.createDirectory(at: self.library, withIntermediateDirectories: false)
            }
        }
        #expect(try writer.history(path: library.path).map(\.command) == ["one"])
        let strays = try strays()
        #expect(strays.isEmpty, "left beside the library: \(strays)")
    }

    @Test("A missing library file is a clear error")
    func missingFile() throws {
        let missing = folder.appendingPathComponent("gone.bib").path
        #expect(throws: LibraryWriteError.unreadable(path: missing, reason: "No such file or directory")) {
            try self.writer.write(path: missing, loaded: LoadedFileStamp(size: 0, modifiedSeconds: 0, modifiedNanoseconds: 0, contentHash: ""),
                                  command: "edit", transform: { $0 }, check: { _, _ in })
        }
    }

    func resolved(_ url: URL) throws -> String {
        try #require(realpath(url.path, nil).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        })
    }
}
