import BibreadTestSupport
import Foundation
import Testing

/// `bibread link`, `open --print`, `handlers` and `install-handler`, run as a user runs them,
/// with stand-in programs on PATH that record how they were called.
@Suite("bibread link, open, handlers, install-handler")
struct LinkCommandTests {
    let library = Fixtures.samples.appendingPathComponent("library.bib").path

    /// Fresh XDG folders, and a folder of stand-in programs that write their arguments, one a
    /// line, to `<name>.args`.
    final class Setup: IsolatedHome {
        var bin: URL { root.appendingPathComponent("bin") }

        init(programs: [String] = []) throws {
            try super.init()
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            environment["PATH"] = bin.path
            for program in programs {
                let script = bin.appendingPathComponent(program)
                try "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '\(root.path)/\(program).args'\n"
                    .write(to: script, atomically: true, encoding: .utf8)
                chmod(script.path, 0o755)
            }
        }

        func arguments(of program: String) -> [String]? {
            (try? String(contentsOf: root.appendingPathComponent("\(program).args"), encoding: .utf8))
                .map { $0.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
        }
    }

    @Test func linkPrintsTheCanonicalLinkAndOpenReadsItBack() throws {
        let setup = try Setup()
        let link = try setup.bibread(["link", "goedel1931formal:12-14", "goedel1931formal:20", "knuth1984texbook",
                                      "--intention", "study", "--library", "library.bib"])
        #expect(link.status == 0, "\(link.standardError)")
        #expect(link.standardOutput == "bibread://open?refs=[goedel1931formal:12-14,goedel1931formal:20],[knuth1984texbook]&library=library.bib&intention=study\n")

        let printed = try setup.bibread(["open", "--print", link.standardOutput.trimmingCharacters(in: .newlines), "--library", library])
        #expect(printed.status == 0, "\(printed.standardError)")
        #expect(printed.standardOutput.contains("study: 2 references in \(library)"))
        #expect(printed.standardOutput.contains("  goedel1931formal p. 12–14, 20 · Gödel (1931) Über formal"))

        let json = try setup.bibread(["open", "--print", "--json", "[@knuth1984texbook, pp. 33-35; @nobody99]", "--library", library])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let targets = try #require(object["targets"] as? [[String: Any]])
        #expect(targets.count == 2)
        #expect(targets[0]["key"] as? String == "knuth1984texbook")
        #expect(targets[0]["pages"] as? [[Int]] == [[33, 35]])
        #expect(targets[0]["found"] as? Bool == true)
        #expect(targets[1]["found"] as? Bool == false)

        let latex = try setup.bibread(["open", "--print", "\\cite[p.~5]{goedel1931formal}", "--library", library])
        #expect(latex.standardOutput.contains("goedel1931formal p. 5 · "))
    }

    @Test func badLinksPointAtTheirError() throws {
        let setup = try Setup()
        let bad = try setup.bibread(["open", "--print", "bibread://open?refs=[knuth84:14-12]"])
        #expect(bad.status == 64)
        #expect(bad.standardError.contains("column 30: a page range ends before it starts (14-12)"))
        #expect(bad.standardError.contains("bibread://open?refs=[knuth84:14-12]\n                             ^"))
        let intention = try setup.bibread(["open", "--print", "bibread://open?refs=[k]&intention=skim"])
        #expect(intention.status == 64)
        #expect(intention.standardError.contains("skim"))
        let target = try setup.bibread(["link", "knuth84:0"])
        #expect(target.status == 64)
    }

    @Test func handlersListsWhatIsInstalledAndHowToGetTheRest() throws {
        let setup = try Setup(programs: ["zathura", "xclip"])
        let listed = try setup.bibread(["handlers", "--intention", "read"])
        #expect(listed.status == 0, "\(listed.standardError)")
        #expect(listed.standardOutput.contains("✓ zathura"))
        #expect(listed.standardOutput.contains(setup.bin.appendingPathComponent("zathura").path))
        #expect(!listed.standardOutput.contains("evince"))
        let all = try setup.bibread(["handlers", "--intention", "read", "--all"])
        #expect(all.standardOutput.contains("✗ evince"))
        #expect(all.standardOutput.contains("not installed: sudo apt install evince"))
        let json = try setup.bibread(["handlers", "--json"])
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(items.contains { $0["id"] as? String == "copy-link-xclip" && $0["installed"] as? Bool == true })
        #expect(items.contains { $0["id"] as? String == "espeak-ng" && $0["installed"] as? Bool == false })
    }

    @Test func installHandlerWritesTheDesktopEntryAndRegistersIt() throws {
        let setup = try Setup(programs: ["xdg-mime"])
        let installed = try setup.bibread(["install-handler"])
        #expect(installed.status == 0, "\(installed.standardError)")
        let desktop = setup.root.appendingPathComponent("data/applications/bibread.desktop")
        let text = try String(contentsOf: desktop, encoding: .utf8)
        #expect(text.contains("MimeType=x-scheme-handler/bibread;"))
        #expect(text.contains("Terminal=true"))
        #expect(text.contains("Exec=\(ProcessRunner.bibreadExecutable.resolvingSymlinksInPath().path) open %u"))
        #expect(setup.arguments(of: "xdg-mime") == ["default", "bibread.desktop", "x-scheme-handler/bibread"])

        let removed = try setup.bibread(["install-handler", "--uninstall"])
        #expect(removed.status == 0)
        #expect(!FileManager.default.fileExists(atPath: desktop.path))
        #expect(removed.standardOutput.contains("Removed \(desktop.path)"))
    }
}
