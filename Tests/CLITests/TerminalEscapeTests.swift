import BibreadTestSupport
import Foundation
import Testing

/// Escape sequences and other control characters in a .bib file or a server's answer never reach
/// the terminal (issue 26, item 7): the real binary, its output piped, in every output form.
/// Text output shows `�` for each control character removed; JSON escapes them (`\u001b`).
@Suite("Control characters from files and servers")
struct TerminalEscapeTests {
    /// A folder holding the hostile libraries; removed when the test ends.
    final class Folder {
        let url: URL
        init() throws {
            url = try Fixtures.temporaryDirectory()
            try HostileText.writeLibraries(to: url)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    }

    @Test func listInAPipeShowsAMarkForEachControlCharacterAndKeepsItsTabsAndLines() throws {
        let folder = try Folder()
        let result = try ProcessRunner.bibread(["list", folder.path("evil.bib")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(HostileText.controls(in: result.standardOutput).isEmpty, "\(HostileText.controls(in: result.standardOutput))")
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines.last == "", "one line a reference: \(lines)")
        let evil = try #require(lines.first { $0.hasPrefix("evil\t") })
        #expect(evil.split(separator: "\t", omittingEmptySubsequences: false).count == 5, "five columns: \(evil)")
        #expect(evil == "evil\tMallory\t2020\t\(HostileText.cleanedTitle)\t\(HostileText.cleanedJournal), 2020")
        #expect(lines.contains("plain\tKnuth\t1984\tA plain title\t1984"))
    }

    @Test func showInAPipeShowsAMarkForEachControlCharacter() throws {
        let folder = try Folder()
        let result = try ProcessRunner.bibread(["show", folder.path("evil.bib"), "evil"])
        #expect(result.status == 0, "\(result.standardError)")
        let output = result.standardOutput
        #expect(HostileText.controls(in: output).isEmpty, "\(HostileText.controls(in: output))")
        #expect(output.contains("Title       \(HostileText.cleanedTitle)\n"), "\(output)")
        #expect(output.contains("Citation    \(HostileText.cleanedJournal), 2020\n"), "\(output)")
        #expect(output.contains("  note     \(HostileText.cleanedNote)\n"), "\(output)")
        #expect(output.contains("  \(HostileText.cleanedURL)\n"), "the Links section: \(output)")
        // Its lines are where they were: the heading, a blank line, the facts.
        #expect(output.hasPrefix("evil  @article  \(folder.path("evil.bib")):1\n\nAuthors     Eve Mallory\n"), "\(output)")
    }

    @Test func listAndShowJSONEscapeEveryControlCharacterAndLoseNone() throws {
        let folder = try Folder()
        for arguments in [["list", folder.path("evil.bib"), "--json"], ["show", folder.path("evil.bib"), "evil", "--json"]] {
            let result = try ProcessRunner.bibread(arguments)
            #expect(result.status == 0, "\(result.standardError)")
            let output = result.standardOutput
            #expect(HostileText.controls(in: output).isEmpty, "\(arguments): \(HostileText.controls(in: output))")
            for escape in ["\\u001b]52;c;", "\\u0007", "\\u007f", "\\u009b", "\\u009d", "\\u009c"] {
                #expect(output.contains(escape), "\(arguments) escapes \(escape): \(output)")
            }
            let parsed = try JSONSerialization.jsonObject(with: Data(output.utf8))
            let object = try #require((parsed as? [[String: Any]])?.first ?? parsed as? [String: Any])
            // Nothing is lost: the values read back are the values in the file.
            #expect(object["title"] as? String == HostileText.title)
            #expect(object["citation"] as? String == HostileText.journal + ", 2020")
            let fields = try #require(object["fields"] as? [String: String])
            #expect(fields["note"] == HostileText.note)
            #expect(fields["url"] == HostileText.url)
            #expect(object["urls"] as? [String] == [HostileText.url])
        }
    }

    /// C1 controls that come from the encoding guess (Windows-1252's undefined bytes keep their
    /// Latin-1 meaning) or from a declared Latin-1 file.
    @Test func controlsFromWindows1252AndLatin1BytesAreCleanedToo() throws {
        let folder = try Folder()
        let files = [folder.path("windows-1252.bib"), folder.path("latin-1.bib")]
        let list = try ProcessRunner.bibread(["list"] + files)
        #expect(HostileText.controls(in: list.standardOutput).isEmpty, "\(HostileText.controls(in: list.standardOutput))")
        #expect(list.standardOutput.contains("w1252\t\t2020\t\(HostileText.cleanedWindows1252Title)\t2020\n"), "\(list.standardOutput)")
        #expect(list.standardOutput.contains("latin\t\t2020\t\(HostileText.cleanedLatin1Title)\t2020\n"), "\(list.standardOutput)")
        for (file, key, title) in [(files[0], "w1252", HostileText.cleanedWindows1252Title), (files[1], "latin", HostileText.cleanedLatin1Title)] {
            let show = try ProcessRunner.bibread(["show", file, key])
            #expect(HostileText.controls(in: show.standardOutput).isEmpty, "\(key): \(HostileText.controls(in: show.standardOutput))")
            #expect(show.standardOutput.contains("Title       \(title)\n"), "\(show.standardOutput)")
        }
        let json = try ProcessRunner.bibread(["list", "--json"] + files)
        #expect(HostileText.controls(in: json.standardOutput).isEmpty)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(array.map { $0["title"] as? String } == ["Café \u{9D}0;ownedœ and \u{8D}\u{90} up", "Café \u{9B}31m red \u{9D}0;t\u{9C}"])
        #expect(json.standardOutput.contains("\\u009d0;owned"))
    }

    /// Messages on standard error that quote a file (a cite key asked for, a file name) are
    /// cleaned the same way.
    @Test func messagesOnStandardErrorAreCleaned() throws {
        let folder = try Folder()
        let hostileName = folder.path("lib\u{1B}]0;pwned\u{07}.bib")
        try Data(("@misc{k\u{1B}[2Jey, title = {T}}\n@misc{broken title = {\u{1B}[2J}\n").utf8).write(to: URL(fileURLWithPath: hostileName))
        let missing = try ProcessRunner.bibread(["show", folder.path("evil.bib"), "no\u{1B}[2Jsuch"])
        #expect(missing.status != 0)
        #expect(HostileText.controls(in: missing.standardError).isEmpty, "\(HostileText.controls(in: missing.standardError))")
        #expect(missing.standardError.contains("no\(HostileText.mark)[2Jsuch"), "\(missing.standardError)")
        for arguments in [["list", hostileName], ["check", hostileName], ["show", hostileName, "nothing"]] {
            let result = try ProcessRunner.bibread(arguments)
            let all = result.standardOutput + result.standardError
            #expect(HostileText.controls(in: all).isEmpty, "\(arguments.first ?? ""): \(HostileText.controls(in: all))\n\(all)")
            #expect(all.contains("lib\(HostileText.mark)]0;pwned\(HostileText.mark).bib"), "\(arguments.first ?? ""): \(all)")
        }
    }

    // MARK: - sync

    /// A plain HTTP remote on the fault server, and this machine's XDG folders.
    final class FaultRemote {
        let root: URL
        let remote: URL
        let server: FaultServer
        let environment: [String: String]

        init() throws {
            root = try Fixtures.temporaryDirectory()
            remote = root.appendingPathComponent("remote")
            try FileManager.default.createDirectory(at: remote.appendingPathComponent("papers"), withIntermediateDirectories: true)
            try Data("@misc{paper, title = {A paper}, file = {:papers/paper.pdf:PDF}}\n".utf8)
                .write(to: remote.appendingPathComponent("library.bib"))
            try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent("papers/tex-tour.pdf"),
                                             to: remote.appendingPathComponent("papers/paper.pdf"))
            server = try FaultServer.start(root: remote)
            environment = Fixtures.isolatedEnvironment(under: root)
            try server.writeRemoteConfig(named: "lab", configHome: root.appendingPathComponent("config"))
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(at: root)
        }

        func bibread(_ arguments: [String]) throws -> ProcessResult {
            try ProcessRunner.bibread(arguments, environment: environment)
        }
    }

    @Test func syncShowsAServersErrorPageCleaned() throws {
        let setup = try FaultRemote()
        try setup.server.setFault(.statusWithBody(500, body: HostileText.errorPage), for: "library.bib")
        let sync = try setup.bibread(["sync", "lab"])
        #expect(sync.status == 1)
        #expect(HostileText.controls(in: sync.standardError).isEmpty, "\(HostileText.controls(in: sync.standardError))")
        #expect(sync.standardError.contains("HTTP 500: \(HostileText.cleanedErrorPage)\n"), "\(sync.standardError)")
        let json = try setup.bibread(["sync", "lab", "--json"])
        #expect(HostileText.controls(in: json.standardOutput + json.standardError).isEmpty,
                "\(HostileText.controls(in: json.standardOutput + json.standardError))")
        #expect((json.standardOutput + json.standardError).contains(HostileText.cleanedErrorPage), "\(json.standardOutput)\(json.standardError)")
    }

    @Test func syncShowsAPDFsErrorPageCleaned() throws {
        let setup = try FaultRemote()
        // HEAD finds the file; GET gets the error page.
        try setup.server.setFault(.statusWithBody(403, body: HostileText.errorPage, method: "GET"), for: "papers/paper.pdf")
        let sync = try setup.bibread(["sync", "lab", "--all-pdfs"])
        #expect(sync.status == 1)
        #expect(HostileText.controls(in: sync.standardError).isEmpty, "\(HostileText.controls(in: sync.standardError))")
        #expect(sync.standardError.contains("papers/paper.pdf: HTTP 403: \(HostileText.cleanedErrorPage)\n"), "\(sync.standardError)")
        let json = try setup.bibread(["sync", "lab", "--all-pdfs", "--json"])
        #expect(HostileText.controls(in: json.standardOutput).isEmpty, "\(HostileText.controls(in: json.standardOutput))")
        let failed = try json.standardOutput.split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.first { $0["event"] as? String == "file-failed" }
        #expect(failed?["reason"] as? String == "HTTP 403: \(HostileText.cleanedErrorPage)", "\(json.standardOutput)")
    }
}
