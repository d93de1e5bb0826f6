import BibModel
import BibreadTestSupport
import BibreadValues
import Foundation
import Glibc
import OpenWith
import Testing

@Suite("Handler discovery and launching, with stand-in programs on PATH", .serialized)
struct DiscoveryTests {
    /// What a reference with a PDF, a key and page text offers (no DOI, no URL).
    private let paperValues: Set<Placeholder> = [.file, .page, .key, .bibtex, .link, .pageText]

    @Test("the menu lists the installed apps for the intention, plus always-shown ones")
    func menuListsInstalled() throws {
        let programs = try StandInPrograms()
        defer { programs.remove() }
        for name in ["zathura", "xclip", "espeak-ng"] { try programs.addRecorder(name) }
        let registry = shippedRegistry()

        let read = registry.menu(for: .read, available: paperValues, path: programs.path, environment: [:])
        #expect(read.map(\.entry.id) == ["zathura", "copy-link-osc52", "copy-link-xclip"])
        let zathura = try #require(read.first)
        #expect(zathura.executable == programs.folder.appendingPathComponent("zathura").path)
        #expect(zathura.isRunnable && zathura.installHint == nil)
        #expect(read[1].isRunnable && read[1].executable == nil, "OSC 52 needs no program")

        let all = registry.menu(for: .read, available: paperValues, path: programs.path, environment: [:], showAll: true)
        let evince = try #require(all.first { $0.entry.id == "evince" })
        #expect(evince.installHint == "sudo apt install evince")
        #expect(!evince.isRunnable && evince.executable == nil)
        #expect(!all.contains { $0.entry.id == "browser-doi" }, "no DOI, no browser at the DOI, even with --all")

        let listen = registry.menu(for: .listen, available: paperValues, path: programs.path, environment: [:])
        #expect(listen.map(\.entry.id) == ["espeak-ng"])
        #expect(listen.first?.isRunnable == true)

        let elsewhere = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let missing = registry.menu(for: .listen, available: paperValues, path: elsewhere.path, environment: [:])
        #expect(missing.map(\.entry.id) == ["espeak-ng"], "always_show keeps it in the menu")
        #expect(missing.first?.installHint == "sudo apt install espeak-ng")
        #expect(missing.first?.isRunnable == false)

        let cite = registry.menu(for: .cite, available: paperValues, path: elsewhere.path, environment: [:])
        #expect(cite.map(\.entry.id) == ["copy-key-osc52", "copy-bibtex-osc52", "copy-link-osc52"])
    }

    @Test("the browser is $BROWSER when it names an installed program, else xdg-open")
    func browserFromEnvironment() throws {
        let programs = try StandInPrograms()
        defer { programs.remove() }
        let values: Set<Placeholder> = [.doi, .url]
        let registry = shippedRegistry()
        #expect(registry.menu(for: .read, available: values, path: programs.path, environment: [:]).isEmpty)
        try programs.addRecorder("xdg-open")
        try programs.addRecorder("firefox")
        let xdg = programs.folder.appendingPathComponent("xdg-open").path
        let firefox = programs.folder.appendingPathComponent("firefox").path
        func executables(_ environment: [String: String]) -> [String?] {
            registry.menu(for: .read, available: values, path: programs.path, environment: environment).map(\.executable)
        }
        #expect(executables([:]) == [xdg, xdg])
        #expect(executables(["BROWSER": "firefox %s:w3m"]) == [firefox, firefox])
        #expect(executables(["BROWSER": "not-installed"]) == [xdg, xdg])
        #expect(executables(["BROWSER": "$(touch pwned)"]) == [xdg, xdg])
        #expect(!programs.contains("pwned"))
    }

    @Test("zathura runs detached with hostile file names as exactly one argument each")
    func detachedHostileFiles() throws {
        let programs = try StandInPrograms()
        defer { programs.remove() }
        try programs.addRecorder("zathura")
        let registry = shippedRegistry()
        let item = try #require(registry.menu(for: .read, available: paperValues, path: programs.path, environment: [:]).first)
        let executable = try #require(item.executable)
        let cases: [(file: String, expected: [String])] = [
            ("--help", ["--page=7", "./--help"]),
            ("a b;rm -rf ~", ["--page=7", "a b;rm -rf ~"]),
            ("$(touch pwned).pdf", ["--page=7", "$(touch pwned).pdf"]),
            ("/papers/`touch pwned`\"'.pdf", ["--page=7", "/papers/`touch pwned`\"'.pdf"]),
        ]
        for (file, expected) in cases {
            programs.clearRecords("zathura")
            let command = try CommandBuilder.command(for: item.entry, values: HandlerValues([.file: file, .page: "7"]), executable: executable)
            let process = try Launcher.spawn(command, style: .detached, environment: programs.environment)
            #expect(programs.recordedArguments("zathura") == expected)
            #expect(programs.recordedInput("zathura") == "", "a detached program reads /dev/null")
            #expect(process.waitUntilExit(timeout: 10) == .exited(0), "collected, no zombie")
        }
        #expect(!programs.contains("pwned"))
        #expect(!FileManager.default.fileExists(atPath: "pwned"))
    }

    @Test("a hostile key stays one argument and reaches xclip's standard input untouched")
    func hostileKey() throws {
        let programs = try StandInPrograms()
        defer { programs.remove() }
        try programs.addRecorder("xclip")
        try programs.addRecorder("zathura")
        let key = "$(touch pwned);rm -rf ~ `touch pwned` |x"
        let (registry, problems) = HandlerRegistry.load(user: """
        [[handler]]
        id = "show-key"
        argv = ["zathura", "--key={key}", "{key}"]
        intentions = ["cite"]
        style = "quick"
        """, userPath: "u.toml")
        #expect(problems == [])
        let menu = registry.menu(for: .cite, available: [.key], path: programs.path, environment: [:])
        #expect(menu.map(\.entry.id) == ["copy-key-osc52", "copy-key-xclip", "show-key"])

        let copy = try #require(menu.first { $0.entry.id == "copy-key-xclip" })
        let copyCommand = try CommandBuilder.command(for: copy.entry, values: HandlerValues([.key: key]), executable: try #require(copy.executable))
        let copied = try Launcher.spawn(copyCommand, style: copy.entry.style, environment: programs.environment)
        #expect(copied.termination == .exited(0), "quick: waited for")
        #expect(programs.recordedArguments("xclip") == ["-selection", "clipboard"])
        #expect(programs.recordedInput("xclip") == key)

        let show = try #require(menu.last)
        let showCommand = try CommandBuilder.command(for: show.entry, values: HandlerValues([.key: key]), executable: try #require(show.executable))
        try Launcher.spawn(showCommand, style: show.entry.style, environment: programs.environment)
        #expect(programs.recordedArguments("zathura") == ["--key=\(key)", key])
        #expect(!programs.contains("pwned"))
        #expect(!FileManager.default.fileExists(atPath: "pwned"))
    }

    @Test("espeak-ng runs in the background and stop() ends it and what it started")
    func backgroundStops() throws {
        let programs = try StandInPrograms()
        defer { programs.remove() }
        let sleep = try StandInPrograms.tool("sleep")
        let sleeperFile = programs.folder.appendingPathComponent("sleeper").path
        try programs.addRecorder("espeak-ng", then: "\(sleep) 30 &\necho $! > '\(sleeperFile).tmp'\n\(try StandInPrograms.tool("mv")) '\(sleeperFile).tmp' '\(sleeperFile)'\nwait")
        let registry = shippedRegistry()
        let item = try #require(registry.menu(for: .listen, available: paperValues, path: programs.path, environment: [:]).first)
        let command = try CommandBuilder.command(for: item.entry, values: HandlerValues([.pageText: "The art of computer programming."]),
                                                 executable: try #require(item.executable))
        let process = try Launcher.spawn(command, style: item.entry.style, environment: programs.environment)
        #expect(programs.recordedInput("espeak-ng") == "The art of computer programming.")
        #expect(programs.recordedArguments("espeak-ng") == ["--stdin"])
        let sleeper = try #require(programs.waitForFile("sleeper").flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        #expect(process.isRunning)
        #expect(process.stop() == .signaled(SIGTERM))
        #expect(!process.isRunning)
        #expect(process.stop() == .signaled(SIGTERM), "stopping again only reports")
        #expect(waitUntilGone(sleeper), "the program's own child ended too (its process group got the signal)")
    }

    @Test("a program that ignores SIGTERM is killed after the grace period")
    func stubbornProgramKilled() throws {
        let programs = try StandInPrograms()
        defer { programs.remove() }
        let sleep = try StandInPrograms.tool("sleep")
        let ready = programs.folder.appendingPathComponent("ready").path
        let path = try programs.addScript("stubborn", body: "trap '' TERM\n: > '\(ready)'\nwhile :; do \(sleep) 1; done")
        let process = try Launcher.spawn(PreparedCommand(executable: path, arguments: []), style: .background, environment: programs.environment)
        #expect(programs.waitForFile("ready") != nil)
        let started = Date()
        #expect(process.stop(gracePeriod: 0.3) == .signaled(SIGKILL))
        #expect(Date().timeIntervalSince(started) < TestTiming.seconds(5))
    }

    /// Whether process `pid` ends (or is only a zombie) within a few seconds.
    private func waitUntilGone(_ pid: pid_t) -> Bool {
        let deadline = Date(timeIntervalSinceNow: 5)
        repeat {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
            if let close = stat.lastIndex(of: ")"), stat[stat.index(close, offsetBy: 2)] == "Z" { return true }
            usleep(20_000)
        } while Date() < deadline
        return false
    }
}
