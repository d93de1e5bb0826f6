import BibreadTestSupport
import BibreadValues
import Foundation
import Glibc
import OpenWith
import Testing

@Suite("Launcher", .serialized)
struct LauncherTests {
    @Test("PATH lookup finds executable regular files only")
    func findExecutable() throws {
        let programs = try StandInPrograms()
        defer { programs.remove() }
        let tool = try programs.addScript("tool", body: "exit 0")
        try programs.addScript("plain", body: "exit 0", mode: 0o644)
        try FileManager.default.createDirectory(at: programs.folder.appendingPathComponent("folder"), withIntermediateDirectories: true)
        #expect(Launcher.findExecutable("tool", path: "/nonexistent:\(programs.path)") == tool)
        #expect(Launcher.findExecutable("tool", path: programs.path + "/") == tool)
        #expect(Launcher.findExecutable("plain", path: programs.path) == nil, "not executable")
        #expect(Launcher.findExecutable("folder", path: programs.path) == nil, "a folder is no program")
        #expect(Launcher.findExecutable("missing", path: programs.path) == nil)
        #expect(Launcher.findExecutable("", path: programs.path) == nil)
        #expect(Launcher.findExecutable(tool, path: "") == tool, "a path is taken as it is")
        let relative = try #require(programs.folder.path.split(separator: "/").first.map(String.init))
        #expect(Launcher.findExecutable("tool", path: "::\(relative)") == nil, "empty and relative PATH entries are skipped")
    }

    @Test("a program written ~/… is looked up in HOME")
    func homeProgram() throws {
        let programs = try StandInPrograms()
        defer { programs.remove() }
        let viewer = try programs.addScript("viewer", body: "exit 0")
        let entry = HandlerEntry(id: "v", name: "v", argv: ["~/viewer", "{file}"], intentions: [.read], style: .detached)
        #expect(Launcher.resolveProgram(of: entry, path: "", environment: ["HOME": programs.path]) == viewer)
        #expect(Launcher.resolveProgram(of: entry, path: "", environment: [:]) == nil)
    }

    @Test("exec failures are typed errors, and there is no fallback to a shell")
    func execFailures() throws {
        let programs = try StandInPrograms()
        defer { programs.remove() }
        let plain = try programs.addScript("plain", body: "exit 0", mode: 0o644)
        let noInterpreter = programs.folder.appendingPathComponent("no-interpreter").path
        try Data("touch pwned\n".utf8).write(to: URL(fileURLWithPath: noInterpreter))
        chmod(noInterpreter, 0o755)
        let missing = programs.folder.appendingPathComponent("missing").path
        #expect(throws: LaunchError.notFound(missing)) {
            try Launcher.spawn(PreparedCommand(executable: missing, arguments: []), style: .quick)
        }
        #expect(throws: LaunchError.permissionDenied(plain)) {
            try Launcher.spawn(PreparedCommand(executable: plain, arguments: []), style: .quick)
        }
        #expect(throws: LaunchError.notExecutable(noInterpreter)) {
            try Launcher.spawn(PreparedCommand(executable: noInterpreter, arguments: []), style: .quick,
                               environment: programs.environment)
        }
        #expect(!programs.contains("pwned"))
        #expect(throws: LaunchError.notAProcess) {
            try Launcher.spawn(PreparedCommand(executable: "/bin/true", arguments: []), style: .osc52)
        }
        #expect(throws: LaunchError.invalidArgument("the argument 'a\u{0}b'")) {
            try Launcher.spawn(PreparedCommand(executable: "/bin/true", arguments: ["a\u{0}b"]), style: .quick)
        }
    }

    @Test("quick waits and reports the exit status")
    func quickStatus() throws {
        let programs = try StandInPrograms()
        defer { programs.remove() }
        let failing = try programs.addScript("failing", body: "exit 3")
        let process = try Launcher.spawn(PreparedCommand(executable: failing, arguments: []), style: .quick)
        #expect(process.termination == .exited(3))
        #expect(!process.isRunning)
    }

    @Test("a program that does not read its standard input does not hurt bibread (no SIGPIPE)")
    func unreadStandardInput() throws {
        let programs = try StandInPrograms()
        defer { programs.remove() }
        let early = try programs.addScript("early", body: "exit 0")
        let bytes = [UInt8](repeating: 0x61, count: 4 * 1024 * 1024)
        for _ in 0..<3 {
            let process = try Launcher.spawn(PreparedCommand(executable: early, arguments: [], standardInput: bytes), style: .quick)
            #expect(process.termination == .exited(0))
        }
    }

    @Test("terminal style feeds standard input through a pipe and waits")
    func terminalStyle() throws {
        let programs = try StandInPrograms()
        defer { programs.remove() }
        let pager = try programs.addRecorder("pager")
        let text = String(repeating: "page text ", count: 20_000)
        let process = try Launcher.spawn(PreparedCommand(executable: pager, arguments: ["-R"], standardInput: Array(text.utf8)),
                                         style: .terminal, environment: programs.environment)
        #expect(process.termination == .exited(0))
        #expect(programs.recordedInput("pager", timeout: 0) == text)
        #expect(programs.recordedArguments("pager", timeout: 0) == ["-R"])
    }

    @Test("the environment given replaces bibread's; descriptors above 2 are not inherited")
    func environmentAndDescriptors() throws {
        let programs = try StandInPrograms()
        defer { programs.remove() }
        let out = programs.folder.appendingPathComponent("env").path
        let env = try StandInPrograms.tool("env")
        let ls = try StandInPrograms.tool("ls")
        let script = try programs.addScript("report", body: "\(env) > '\(out).env'\n\(ls) /proc/$$/fd > '\(out).fd'")
        let opened = Glibc.open("/dev/null", O_RDONLY)
        let inheritable = fcntl(opened, F_DUPFD, 150) // no FD_CLOEXEC: only the spawn's closing keeps it out
        close(opened)
        defer { close(inheritable) }
        #expect(inheritable >= 150)
        try Launcher.spawn(PreparedCommand(executable: script, arguments: []), style: .quick,
                           environment: ["ONLY": "this", "PATH": programs.path])
        let variables = Set((programs.waitForFile("env.env") ?? "").split(separator: "\n").map(String.init))
        #expect(variables.contains("ONLY=this"))
        #expect(!variables.contains { $0.hasPrefix("HOME=") })
        let descriptors = (programs.waitForFile("env.fd") ?? "").split(separator: "\n").compactMap { Int($0) }
        #expect(descriptors.contains(2), "\(descriptors)")
        #expect(!descriptors.contains(Int(inheritable)), "\(descriptors)")
    }
}
