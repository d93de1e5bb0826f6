import Foundation
import Testing
import BibreadTestSupport

/// The real `bibread` binary, run as a user runs it.
@Suite("bibread commands")
struct CommandTests {
    private var sample: String { Fixtures.samples.appendingPathComponent("library.bib").path }

    @Test func listPrintsOneTabSeparatedLinePerReferenceWhenPiped() throws {
        let result = try ProcessRunner.bibread(["list", sample])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 25)
        #expect(lines.first == "knuth1981breaking\tKnuth & Plass\t1981\tBreaking Paragraphs into Lines\tSoftware—Practice and Experience 11(11):1119–1184, 1981")
        #expect(lines.contains("goedel1931formal\tGödel\t1931\tÜber formal unentscheidbare Sätze der Principia Mathematica und verwandter Systeme I\tMonatshefte für Mathematik und Physik 38(1):173–198, 1931"))
        #expect(result.standardError.isEmpty)
    }

    @Test func theDefaultCommandPrintsTheListWhenPiped() throws {
        let result = try ProcessRunner.bibread([sample])
        #expect(result.status == 0)
        #expect(result.standardOutput.split(separator: "\n").count == 25)
    }

    @Test func theReaderWithoutALibraryOrTerminalSaysWhatToDo() throws {
        let state = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let result = try ProcessRunner.bibread([], environment: ["XDG_STATE_HOME": state.path, "XDG_CONFIG_HOME": state.path])
        #expect(result.status == 2)
        #expect(result.standardError.contains("needs a terminal"))
    }

    @Test func theReaderRefusesALibraryThatCannotBeRead() throws {
        let result = try ProcessRunner.bibread(["/nonexistent/library.bib"], environment: ["COLUMNS": "80"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("/nonexistent/library.bib"))
    }

    @Test func listJSONHasTheDocumentedShape() throws {
        let result = try ProcessRunner.bibread(["list", sample, "--json"])
        #expect(result.status == 0)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        #expect(array.count == 25)
        let first = try #require(array.first)
        for key in ["key", "type", "authors", "editors", "title", "year", "citation", "fields", "files", "urls"] {
            #expect(first[key] != nil, "missing \(key)")
        }
        #expect(first["key"] as? String == "knuth1981breaking")
        #expect(first["authors"] as? [String] == ["Donald E. Knuth", "Michael F. Plass"])
        let files = try #require(first["files"] as? [[String: Any]])
        #expect(files.first?["path"] as? String == Fixtures.samples.appendingPathComponent("papers/line-breaking.pdf").path)
        #expect(files.first?["exists"] as? Bool == true)
        let fields = try #require(first["fields"] as? [String: String])
        #expect(fields["journal"] == "Software—Practice and Experience")
    }

    @Test func showPrintsEveryDecodedFieldAndResolvedFiles() throws {
        let result = try ProcessRunner.bibread(["show", sample, "SHANNON1948MATHEMATICAL"])
        #expect(result.status == 0, "\(result.standardError)")
        let papers = Fixtures.samples.appendingPathComponent("papers").path
        #expect(result.standardOutput.contains("Title       A Mathematical Theory of Communication"))
        #expect(result.standardOutput.contains("  ✓ \(papers)/information-theory.pdf\n"))
        #expect(result.standardOutput.contains("  ✗ \(papers)/information-theory-slides.pdf  (missing)"))
    }

    @Test func showJSONIsOneObject() throws {
        let result = try ProcessRunner.bibread(["show", sample, "goedel1931formal", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(object["title"] as? String == "Über formal unentscheidbare Sätze der Principia Mathematica und verwandter Systeme I")
        #expect(object["authors"] as? [String] == ["Kurt Gödel"])
    }

    @Test func showUnknownKeySuggestsAndFails() throws {
        let result = try ProcessRunner.bibread(["show", sample, "knuth"])
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("bibread: no reference with key 'knuth' in \(sample); did you mean 'knuth1981breaking'"))
    }

    @Test func checkReportsEveryProblemAndExitsOneOnErrors() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.bib")
        try "@article{a,\n  title = {A},\n  year 1999,\n}\n@book{b, title = {B}, publisher = pub}\n".write(to: broken, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.bibread(["check", broken.path])
        #expect(result.status == 1)
        #expect(result.standardOutput == """
        \(broken.path):3:8: error: expected '=' after 'year', found '1'
        \(broken.path):5:35: warning: undefined @string 'pub', kept as text

        """)
        #expect(result.standardError == "1 error, 1 warning in 2 references from 1 file\n")
    }

    /// Sync clients keep both versions when two machines change a file at once, and the copy's
    /// changes are easy to miss: `check` names every such copy beside the library.
    @Test func checkNamesTheConflictedCopiesBesideTheLibrary() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("papers.bib")
        try "@article{a, title = {A}}\n".write(to: library, atomically: true, encoding: .utf8)
        let copies = [
            "papers (Jane's conflicted copy 2024-03-01).bib",                 // Dropbox
            "papers (conflicted copy 2024-03-01 101530).bib",                 // Nextcloud
            "papers (còpia en conflicte 2018-04-10 093612).bib",              // Nextcloud, in Catalan
            "papers_conflict-20240301-101530.bib",                            // ownCloud
            "papers.sync-conflict-20240301-101530-ABCDEFG.bib",               // Syncthing
        ]
        let others = ["papers (2).bib", "papers-old.bib", "other (conflicted copy 2024-03-01).bib", "papers (conflicted copy).pdf"]
        for name in copies + others { try "@article{a, title = {B}}\n".write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }

        let result = try ProcessRunner.bibread(["check", library.path])
        #expect(result.status == 0, "warnings only")
        let named = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(named.count == copies.count, "\(result.standardOutput)")
        for name in copies {
            #expect(named.contains { $0.hasPrefix("\(library.path):1:1: warning: '\(name)' beside it is a conflicted copy") }, "\(name)")
        }
        #expect(result.standardError == "0 errors, 5 warnings in 1 reference from 1 file\n")
    }

    @Test func checkOfACleanLibraryExitsZero() throws {
        let result = try ProcessRunner.bibread(["check", sample])
        #expect(result.status == 0)
        #expect(result.standardOutput.isEmpty)
    }

    @Test func severalFilesAreOneLibrary() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let strings = folder.appendingPathComponent("strings.bib")
        let refs = folder.appendingPathComponent("refs.bib")
        try "@string{tcs = {Theoretical Computer Science}}".write(to: strings, atomically: true, encoding: .utf8)
        try "@article{x, title = {X}, journal = tcs, year = 2000}".write(to: refs, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.bibread(["list", strings.path, refs.path])
        #expect(result.standardOutput == "x\t\t2000\tX\tTheoretical Computer Science, 2000\n")
    }

    /// (what, how to make it, expected message suffix)
    static let badInputs: [(String, String)] = [
        ("directory", "is a directory; name the .bib files in it"),
        ("missing", "no such file"),
        ("empty", "empty file, no references"),
        ("binary", "binary file, not BibTeX text"),
        ("garbage", "no BibTeX entries found"),
    ]

    @Test(arguments: badInputs)
    func badInputGetsOneClearLineAndANonZeroExit(_ kind: String, _ message: String) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(kind == "directory" ? "dir" : "\(kind).bib")
        switch kind {
        case "directory": try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        case "empty": try Data().write(to: path)
        case "binary": try Data([0x25, 0x50, 0x44, 0x46, 0x00, 0x01, 0xFF, 0x00]).write(to: path)
        case "garbage":
            var generator = SystemRandomNumberGenerator()
            let bytes = (0..<5_000_000).map { _ in UInt8.random(in: 0x20...0x7E, using: &generator) }.map { $0 == UInt8(ascii: "@") ? UInt8(ascii: "a") : $0 }
            try Data(bytes).write(to: path)
        default: break
        }
        for command in [["list"], ["check"], ["show"]] {
            let arguments = command + [path.path] + (command == ["show"] ? ["key"] : [])
            let result = try ProcessRunner.bibread(arguments)
            #expect(result.status == 2, "\(command) \(kind): \(result.status)")
            let firstLine = String(result.standardError.split(separator: "\n").first ?? "")
            #expect(firstLine.hasPrefix("bibread: \(path.path): \(message)"), "\(result.standardError)")
        }
    }

    @Test func searchFiltersTheList() throws {
        let result = try ProcessRunner.bibread(["list", sample, "--search", #"a:knuth -G{\"o}del year:<1984"#])
        #expect(result.status == 0)
        #expect(result.standardOutput.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["knuth1981breaking", "knuth1983web"])
    }

    @Test func malformedSearchPointsAtTheColumn() throws {
        let result = try ProcessRunner.bibread(["list", sample, "--search", "t:tex (a:knuth"])
        #expect(result.status == 64)
        #expect(result.standardError == "bibread: invalid search: this '(' is never closed\n  t:tex (a:knuth\n        ^\n")
        #expect(result.standardOutput.isEmpty)
    }

    @Test func noArgumentsIsAUsageError() throws {
        let result = try ProcessRunner.bibread(["list"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("name at least one .bib file"))
    }
}
