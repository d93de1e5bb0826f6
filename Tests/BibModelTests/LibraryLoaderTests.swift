@testable import BibModel
import BibreadTestSupport
import Foundation
import Testing

/// `LibraryLoader.load(paths:reading:)`: a file read from one place (a download) as if it were
/// at another (where it will be renamed to).
@Suite("library loader")
struct LibraryLoaderTests {
    @Test func aFileReadFromElsewhereIsNamedAndResolvedByItsPath() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appendingPathComponent("library")
        let incoming = directory.appendingPathComponent("incoming")
        for folder in [library, incoming] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let path = library.appendingPathComponent("library.bib").path
        let source = incoming.appendingPathComponent(".library.bib.download").path
        try Data("""
            @article{first, title = {One}, file = {:papers/one.pdf:PDF}}
            @article{broken, title = "x" author = {y}}
            """.utf8).write(to: URL(fileURLWithPath: source))

        let (loaded, failures) = LibraryLoader.load(paths: [path], reading: [source])
        #expect(failures.isEmpty)
        #expect(loaded.entries.map(\.key) == ["first", "broken"])
        #expect(loaded.files.map(\.source.path) == [path])
        #expect(loaded.diagnostics.map(\.path) == [path])
        #expect(loaded.diagnostics.map(\.description).allSatisfy { $0.hasPrefix("\(path):2:") })
        let linked = try #require(loaded.entries.first?.links.files.first)
        #expect(linked.path == library.appendingPathComponent("papers/one.pdf").path)
        // The same file read from its own place gives the same library.
        try FileManager.default.copyItem(atPath: source, toPath: path)
        let direct = LibraryLoader.load(paths: [path]).library
        #expect(direct.diagnostics.map(\.description) == loaded.diagnostics.map(\.description))
        #expect(direct.entries.first?.links.files.first?.path == linked.path)
    }

    @Test func aSourceThatCannotBeReadIsAFailureOfItsPath() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("library.bib").path
        let empty = directory.appendingPathComponent("empty.download").path
        FileManager.default.createFile(atPath: empty, contents: Data("  \n".utf8))
        let missing = directory.appendingPathComponent("missing.download").path

        #expect(LibraryLoader.load(paths: [path], reading: [empty]).failures == [LoadFailure(path: path, reason: .empty)])
        #expect(LibraryLoader.load(paths: [path], reading: [missing]).failures == [LoadFailure(path: path, reason: .missing)])
    }

    @Test("A library that is a FIFO is refused at once, with what it is, and the other files load (issue 26, item 6)")
    func aFIFOIsRefusedWithoutBlocking() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("library.bib")
        try FIFO.make(at: fifo)
        let other = directory.appendingPathComponent("other.bib")
        try Data("@misc{other2020, title = {Other}}".utf8).write(to: other)
        let paths = [fifo.path, other.path]
        let result = FIFO.call(unblocking: fifo) { LibraryLoader.load(paths: paths) }
        let (library, failures) = try #require(result, "loading a FIFO blocked until a writer came")
        #expect(failures == [LoadFailure(path: fifo.path, reason: .notRegularFile(kind: "a FIFO"))])
        #expect(failures.first?.description == "\(fifo.path): not a regular file (a FIFO)")
        #expect(library.entries.map(\.key) == ["other2020"])
    }

    @Test func lineNumbersWorkedOutWhileIndexingAreTheLinesOfTheEntries() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("first.bib").path
        let second = directory.appendingPathComponent("second.bib").path
        var text = ""
        for index in 0..<2_000 { text += "\n% comment\n@misc{e\(index),\n  title = {T\(index)}}\n" }
        try Data(text.utf8).write(to: URL(fileURLWithPath: first))
        try Data("@misc{x,\n  crossref = {e7}}\n\n@misc{y, year = 1}\n".utf8).write(to: URL(fileURLWithPath: second))

        let prepared = LibraryLoader.load(paths: [first, second], preparingLineNumbers: true).library
        let lines = prepared.entries.map(\.line)
        #expect(lines.count == 2_002)
        #expect(Array(lines.prefix(3)) == [3, 7, 11])
        #expect(lines[1_999] == 4 * 1_999 + 3)
        #expect(Array(lines.suffix(2)) == [1, 4])
        #expect(lines == LibraryLoader.load(paths: [first, second]).library.entries.map(\.line))
        #expect(prepared.entries[2_000].raw("title") == "T7")
    }

    /// Lines found from a hint (the last line found) are those a whole search finds, for
    /// offsets asked in order, backwards, at random, and at every line start and end; a hint
    /// past the end is ignored.
    @Test func linesFoundFromAHintAreThoseOfAWholeSearch() {
        let (start, seed) = SeededGenerator.forTest("linesFoundFromAHintAreThoseOfAWholeSearch")
        var generator = start
        var text: [UInt8] = []
        for _ in 0..<3_000 {
            text += Array(repeating: UInt8(ascii: "x"), count: Int.random(in: 0...40, using: &generator))
            text.append(0x0A)
        }
        let index = LineIndex(bytes: text)
        let inOrder = Array(0...text.count)
        let offsets = inOrder + inOrder.reversed() + (0..<5_000).map { _ in Int.random(in: 0...text.count, using: &generator) }
        var hint = 0
        var mismatches: [Int] = []
        for offset in offsets where index.line(of: offset, hint: &hint) != index.line(of: offset) {
            mismatches.append(offset)
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5)) (seed \(seed))")
        #expect(index.line(of: 0) == 1)
        #expect(index.line(of: text.count) == 3_001)
        let firstNewline = text.firstIndex(of: 0x0A) ?? 0
        #expect(index.line(of: firstNewline) == 1 && index.line(of: firstNewline + 1) == 2, "seed \(seed)")
        for offset in [0, firstNewline, firstNewline + 1, text.count / 2, text.count] {
            var stale = 10_000
            #expect(index.line(of: offset, hint: &stale) == index.line(of: offset), "a hint past the end is ignored: offset \(offset) (seed \(seed))")
        }
    }

    /// A file of more than 8 MB is read in two halves at once: every byte lands in its place.
    @Test func aLargeFileReadInTwoHalvesIsWhole() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("large.bib").path
        var text = ""
        let count = 90_000
        for index in 0..<count {
            text += "@misc{k\(index), title = {Title number \(index) with some padding to make it long enough}, year = \(1900 + index % 100)}\n"
        }
        let bytes = Array(text.utf8)
        #expect(bytes.count > 8 << 20)
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        #expect(try LibraryLoader.read(path).get() == bytes)
        let library = LibraryLoader.load(paths: [path]).library
        #expect(library.entries.count == count)
        #expect(library.diagnostics.isEmpty)
        let last = try #require(library.entries.last)
        #expect(last.key == "k\(count - 1)")
        #expect(last.line == count)
        #expect(library.entries[count / 2].raw("title") == "Title number \(count / 2) with some padding to make it long enough")
    }

    /// A large file's UTF-8 is checked in two halves at once: the answer is the one a single pass
    /// gives, wherever the split falls inside a character and wherever the bad byte is.
    @Test func aLargeFileIsCheckedForUTF8InTwoHalves() throws {
        let size = SourceDecoding.parallelValidationSize + 1_000
        func check(_ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBufferPointer { SourceDecoding.halvesAreValidUTF8($0) }
        }
        func singlePass(_ bytes: [UInt8]) -> Bool {
            String(validating: bytes, as: UTF8.self) != nil
        }
        for character in ["é", "📚"] {
            // Shifted by 0 to 3 bytes, so that the middle falls on every byte of a character.
            for shift in 0..<4 {
                let valid = Array(String(repeating: "a", count: shift).utf8)
                    + Array(String(repeating: character, count: size / character.utf8.count).utf8)
                #expect(check(valid), "\(character) shifted by \(shift)")
                #expect(valid.withUnsafeBufferPointer { SourceDecoding.firstInvalidUTF8Offset(in: $0) } == nil)
                var broken = valid
                broken[valid.count / 2 - 1] = 0xE2  // a lead byte with no continuation after it
                if broken[valid.count / 2] & 0xC0 != 0x80 {
                    #expect(!check(broken) && !singlePass(broken), "\(character) shifted by \(shift)")
                }
                for position in [10, valid.count / 2, valid.count - 1] {
                    var bad = valid
                    bad[position] = 0xFF
                    #expect(!check(bad), "0xFF at \(position), \(character) shifted by \(shift)")
                    #expect(bad.withUnsafeBufferPointer { SourceDecoding.firstInvalidUTF8Offset(in: $0) } != nil)
                }
            }
        }
        // A file with a bad byte late in it is read as Windows-1252, with the bad byte's line.
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("large-latin1.bib").path
        var lines: [String] = []
        for index in 0..<100_000 {
            lines.append("@misc{k\(index), title = {Titre num\u{E9}ro \(index), assez long pour passer huit m\u{E9}gaoctets}}")
        }
        var bytes = Array(lines.joined(separator: "\n").utf8)
        #expect(bytes.count > SourceDecoding.parallelValidationSize)
        let lateLine = 90_000
        let lateOffset = Array(lines[..<(lateLine - 1)].joined(separator: "\n").utf8).count + 1
        bytes.insert(0xE9, at: lateOffset + 1)  // "@\xE9misc": Latin-1 é, not UTF-8
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let library = LibraryLoader.load(paths: [path]).library
        let warning = try #require(library.diagnostics.first { $0.message.contains("not valid UTF-8") })
        #expect(warning.location.line == lateLine)
    }
}
