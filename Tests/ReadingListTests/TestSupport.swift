import BibreadTestSupport
import Foundation
import ReadingList
import Testing

/// Sample lists shared by the tests.
enum Samples {
    /// A list with every kind of node, nested folders, non-ASCII names, characters XML and JSON
    /// escape, bookmarks with and without library and last page, and page notes.
    static let rich = ReadingList(
        root: BookmarkFolder(name: "Reading — été 日本 📚", children: [
            .bookmark(Bookmark(
                name: "Intro <&> \"quoted\" 'single'",
                reference: PageReference(citeKey: "knuth:1984", library: "main.bib", page: 12, lastPage: 14),
                notes: ["Note on 12 <b>&amp;</b>", "", "日本語のメモ 🎉"])),
            .notemark(Notemark(name: "Todo ✅", text: "Read chapters 3 & 4 <soon>\nline two\ttab\r\nCRLF")),
            .folder(BookmarkFolder(name: "Sous-dossier é", children: [
                .bookmark(Bookmark(name: "Lamport", reference: PageReference(citeKey: "lamport94", page: 5))),
                .folder(BookmarkFolder(name: "Deeper 日本", children: [
                    .notemark(Notemark(name: "n2", text: "")),
                    .folder(BookmarkFolder(name: "Empty")),
                ])),
            ])),
            .bookmark(Bookmark(
                name: "Doe, fewer notes than pages",
                reference: PageReference(citeKey: "doe2020", library: "Library with spaces", page: 100, lastPage: 103),
                notes: ["only one"])),
            .bookmark(Bookmark(
                name: String(repeating: "long name ", count: 40),
                reference: PageReference(citeKey: "a", page: 1_000_000))),
        ]),
        includesPageNotes: true)

    /// `list` as read back when page notes are not part of it.
    static func withoutNotes(_ list: ReadingList) -> ReadingList {
        func strip(_ folder: BookmarkFolder) -> BookmarkFolder {
            BookmarkFolder(name: folder.name, children: folder.children.map { node in
                switch node {
                case .folder(let sub): return .folder(strip(sub))
                case .bookmark(var bookmark):
                    bookmark.notes = []
                    return .bookmark(bookmark)
                case .notemark: return node
                }
            })
        }
        return ReadingList(root: strip(list.root), includesPageNotes: false)
    }

    /// A list large enough for two-byte references and extended lengths in binary plists.
    static let large: ReadingList = {
        let bookmarks = (1...600).map { index in
            BookmarkNode.bookmark(Bookmark(name: "Bookmark \(index) é",
                                           reference: PageReference(citeKey: "key\(index)", page: index, lastPage: index + 2),
                                           notes: index.isMultiple(of: 3) ? ["n\(index)"] : []))
        }
        return ReadingList(root: BookmarkFolder(name: String(repeating: "x", count: 300),
                                                children: [.folder(BookmarkFolder(name: "Many", children: bookmarks))]),
                           includesPageNotes: true)
    }()
}

/// Runs Python scripts for interoperability checks.
enum Python {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `script` with `python3`, `sys.argv[1]` naming a file holding `input`; returns stdout.
    static func run(_ script: String, input: [UInt8] = []) throws -> String {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scriptURL = folder.appendingPathComponent("script.py")
        let inputURL = folder.appendingPathComponent("input")
        try Data(script.utf8).write(to: scriptURL)
        try Data(input).write(to: inputURL)
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", scriptURL.path, inputURL.path],
                                           environment: ["PYTHONIOENCODING": "utf-8"])
        guard result.status == 0 else {
            throw Failure(description: "python3 exited with \(result.status): \(result.standardError)")
        }
        return result.standardOutput
    }

    /// The bytes a script printed as base64 on its last line.
    static func bytes(_ script: String, input: [UInt8] = []) throws -> [UInt8] {
        let output = try run(script, input: input).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let data = Data(base64Encoded: output) else { throw Failure(description: "not base64: \(output.prefix(200))") }
        return [UInt8](data)
    }

    /// The rich sample as a Python literal, the way our encoder shapes it.
    static let richTree = """
        {'Class': 'Folder', 'Name': 'Reading — été 日本 📚', 'IncludesPageNotes': 'YES', 'Children': [
          {'Class': 'Bookmark', 'Name': 'Intro <&> "quoted" \\'single\\'',
           'Reference': {'Class': 'Reference', 'CiteKey': 'knuth:1984', 'Library': 'main.bib', 'Page': 12, 'LastPage': 14},
           'Notes': ['Note on 12 <b>&amp;</b>', '', '日本語のメモ 🎉']},
          {'Class': 'Notemark', 'Name': 'Todo ✅', 'Text': 'Read chapters 3 & 4 <soon>\\nline two\\ttab\\r\\nCRLF'},
          {'Class': 'Folder', 'Name': 'Sous-dossier é', 'Children': [
            {'Class': 'Bookmark', 'Name': 'Lamport', 'Reference': {'Class': 'Reference', 'CiteKey': 'lamport94', 'Page': 5}},
            {'Class': 'Folder', 'Name': 'Deeper 日本', 'Children': [
              {'Class': 'Notemark', 'Name': 'n2', 'Text': ''},
              {'Class': 'Folder', 'Name': 'Empty', 'Children': []}]}]},
          {'Class': 'Bookmark', 'Name': 'Doe, fewer notes than pages',
           'Reference': {'Class': 'Reference', 'CiteKey': 'doe2020', 'Library': 'Library with spaces', 'Page': 100, 'LastPage': 103},
           'Notes': ['only one']},
          {'Class': 'Bookmark', 'Name': 'long name ' * 40, 'Reference': {'Class': 'Reference', 'CiteKey': 'a', 'Page': 1000000}}]}
        """
}

/// Builds binary plists object by object, for inputs no writer would produce (cycles, shared
/// references, deep chains). Object references are 4 bytes, offsets 4 bytes.
struct RawBinaryPlist {
    private(set) var objects: [[UInt8]] = []

    /// Adds an object from its bytes; returns its number.
    @discardableResult
    mutating func add(_ bytes: [UInt8]) -> Int {
        objects.append(bytes)
        return objects.count - 1
    }

    static func reference(_ index: Int) -> [UInt8] {
        [UInt8(index >> 24 & 0xFF), UInt8(index >> 16 & 0xFF), UInt8(index >> 8 & 0xFF), UInt8(index & 0xFF)]
    }

    static func marker(_ kind: UInt8, count: Int) -> [UInt8] {
        if count < 15 { return [kind << 4 | UInt8(count)] }
        return [kind << 4 | 0x0F, 0x12] + reference(count)
    }

    static func array(_ children: [Int]) -> [UInt8] {
        marker(0xA, count: children.count) + children.flatMap(reference)
    }

    static func dictionary(_ pairs: [(key: Int, value: Int)]) -> [UInt8] {
        marker(0xD, count: pairs.count) + pairs.flatMap { reference($0.key) } + pairs.flatMap { reference($0.value) }
    }

    static func ascii(_ text: String) -> [UInt8] {
        marker(0x5, count: text.utf8.count) + Array(text.utf8)
    }

    /// The file, with `top` as the top object.
    func bytes(top: Int = 0) -> [UInt8] {
        var output = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(output.count)
            output += object
        }
        let table = output.count
        for offset in offsets { output += Self.reference(offset) }
        output += [0, 0, 0, 0, 0, 0, 4, 4]
        output += [0, 0, 0, 0] + Self.reference(objects.count)
        output += [0, 0, 0, 0] + Self.reference(top)
        output += [0, 0, 0, 0] + Self.reference(table)
        return output
    }
}

/// Runs `body`, returning the `ReadingListError` it throws (or recording an issue).
func readingListError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> ReadingListError? {
    do {
        try body()
        Issue.record("expected an error, but none was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as ReadingListError {
        return error
    } catch {
        Issue.record("expected a ReadingListError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The message of a `.badLink` or `.limitExceeded`, or the description of any other error.
func message(of error: ReadingListError?) -> String {
    switch error {
    case .badLink(let text)?, .limitExceeded(let text)?, .unrecognizedFormat(let text)?: return text
    case let other?: return other.description
    case nil: return ""
    }
}

/// Seconds taken by `body`.
func seconds(_ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    let duration = clock.measure(body)
    return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
