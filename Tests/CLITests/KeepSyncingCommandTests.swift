import BibreadTestSupport
import Foundation
import Testing

/// `bibread sync --every` as a long-lived job, and `bibread install-sync-service` (issue 30).
@Suite("Sync that keeps going: sync --every, install-sync-service")
struct KeepSyncingCommandTests {
    /// A `bibread sync ARGUMENTS` running in the background with its output in a log file.
    private final class RunningSync {
        let process = Process()
        let log: URL

        init(_ arguments: [String], sandbox: SyncSandbox, environment extra: [String: String] = [:]) throws {
            log = sandbox.root.appendingPathComponent("every-\(UUID().uuidString).log")
            FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            defer { try? handle.close() }
            process.executableURL = ProcessRunner.bibreadExecutable
            process.arguments = ["sync"] + arguments
            process.environment = ProcessInfo.processInfo.environment.merging(sandbox.environment) { $1 }.merging(extra) { $1 }
            process.standardOutput = handle
            process.standardError = handle
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

        /// Waits (a minute at most) until `condition` holds; fails with the log when it does not.
        func waitFor(_ what: String, _ condition: (String) -> Bool) throws {
            let deadline = Date().addingTimeInterval(TestTiming.seconds(60))
            while !condition(output) && Date() < deadline {
                guard process.isRunning else { break }
                usleep(50_000)
            }
            guard condition(output) else { throw SyncSandboxError("waited for \(what); the job's log:\n\(output)") }
        }

        /// Sends `signal` and waits for the exit; returns the status and the seconds it took.
        func stop(with signal: Int32) -> (status: Int32, seconds: Double) {
            let sent = Date()
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            return (process.terminationStatus, Date().timeIntervalSince(sent))
        }

        func count(_ text: String) -> Int { output.components(separatedBy: text).count - 1 }
    }

    @Test("sync --every 1s runs round after round, a PDF added to the remote between them arrives, and SIGTERM ends it with status 0")
    func everyRunsRoundsUntilSIGTERM() throws {
        let sandbox = try SyncSandbox()
        try sandbox.configure("[[remote]]\nname = \"lab\"\nurl = \"\(sandbox.remote.path)\"\n")
        let job = try RunningSync(["lab", "--all-pdfs", "--every", "1s"], sandbox: sandbox)
        try job.waitFor("the first round to end") { $0.contains("next sync of 'lab' in 1s") }
        #expect(job.output.contains("Done: 5 downloaded"), "\(job.output)")
        // Between two rounds the remote gains a reference with a PDF: a later round brings it.
        try Data("%PDF-1.4\n%%EOF\n".utf8).write(to: sandbox.remote.appendingPathComponent("papers/later.pdf"))
        try sandbox.appendEntry("@misc{later, title = {Added between two rounds}, file = {:papers/later.pdf:PDF}}")
        let arrived = sandbox.cache("lab").appendingPathComponent("papers/later.pdf")
        try job.waitFor("the later PDF to arrive in the cache") { _ in FileManager.default.fileExists(atPath: arrived.path) }
        try job.waitFor("a third round") { $0.contains("sync 3 of 'lab'") }
        let (status, seconds) = job.stop(with: SIGTERM)
        #expect(status == 0, "\(job.output)")
        #expect(seconds < TestTiming.seconds(10), "it took \(seconds) s to end after SIGTERM")
        #expect(job.output.contains("stopped after"), "\(job.output)")
    }

    @Test("A round that fails (the remote's folder is gone) is reported and the next round still runs and succeeds")
    func aFailedRoundDoesNotEndTheJob() throws {
        let sandbox = try SyncSandbox()
        try sandbox.configure("[[remote]]\nname = \"lab\"\nurl = \"\(sandbox.remote.path)\"\n")
        let away = sandbox.root.appendingPathComponent("away")
        try FileManager.default.moveItem(at: sandbox.remote, to: away)
        let job = try RunningSync(["lab", "--all-pdfs", "--every", "1s"], sandbox: sandbox)
        try job.waitFor("a failed round") { $0.contains("sync 1 of 'lab' failed") || $0.contains("sync 1 of 'lab' did not succeed") }
        #expect(job.process.isRunning, "\(job.output)")
        try FileManager.default.moveItem(at: away, to: sandbox.remote)
        try job.waitFor("a round that downloads the PDFs") { $0.contains("Done: 5 downloaded") }
        let (status, _) = job.stop(with: SIGTERM)
        #expect(status == 0, "\(job.output)")
    }

    @Test("Ctrl-C (SIGINT) during the wait between rounds ends sync --every at once with status 130")
    func sigintDuringTheWaitEndsIt() throws {
        let sandbox = try SyncSandbox()
        let job = try RunningSync([sandbox.remote.path, "--name", "lab", "--every", "1h"], sandbox: sandbox)
        try job.waitFor("the wait after the first round") { $0.contains("next sync of 'lab' in 1h") }
        let (status, seconds) = job.stop(with: SIGINT)
        #expect(status == 130, "\(job.output)")
        #expect(seconds < TestTiming.seconds(5), "it took \(seconds) s")
    }

    @Test("With sync_on_metered = false on a metered connection, every round syncs the .bib and skips the PDFs")
    func everyRespectsSyncOnMetered() throws {
        let sandbox = try SyncSandbox()
        try sandbox.configure("sync_on_metered = false\n[[remote]]\nname = \"lab\"\nurl = \"\(sandbox.remote.path)\"\n")
        let bin = sandbox.root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        // A stand-in for NetworkManager's nmcli (it cannot run here), answering as nmcli does.
        try "#!/bin/sh\nprintf 'GENERAL.METERED:yes\\n'\n".write(to: bin.appendingPathComponent("nmcli"), atomically: true, encoding: .utf8)
        chmod(bin.appendingPathComponent("nmcli").path, 0o755)
        let job = try RunningSync(["lab", "--all-pdfs", "--every", "1s"], sandbox: sandbox,
                                  environment: ["PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")])
        try job.waitFor("two rounds") { $0.contains("sync 3 of 'lab'") }
        #expect(job.count("PDFs were not downloaded: the connection is metered") >= 2, "\(job.output)")
        #expect(sandbox.files(under: sandbox.cache("lab")).filter { $0.hasSuffix(".pdf") }.isEmpty)
        #expect(job.stop(with: SIGTERM).status == 0, "\(job.output)")
    }

    @Test("--every refuses what is not an interval, in words")
    func everyRefusesABadInterval() throws {
        let sandbox = try SyncSandbox()
        for bad in ["0", "soon", "5x", "10m3"] {
            let result = try sandbox.bibread(["sync", sandbox.remote.path, "--every", bad])
            #expect(result.status == 64, "\(bad): \(result.standardError)")
            #expect(result.standardError.contains("--every must be an interval such as \"30m\""), "\(bad): \(result.standardError)")
        }
    }

    // MARK: - install-sync-service

    private func unitFolder(_ sandbox: SyncSandbox) -> URL { sandbox.root.appendingPathComponent("config/systemd/user") }

    @Test("install-sync-service writes a service and a timer for the remote, prints how to enable them, and systemd-analyze verifies them")
    func installWritesUnitsSystemdAccepts() throws {
        let sandbox = try SyncSandbox()
        try sandbox.configure("[[remote]]\nname = \"lab\"\nurl = \"\(sandbox.remote.path)\"\n")
        let result = try sandbox.bibread(["install-sync-service", "lab", "--every", "45m"])
        #expect(result.status == 0, "\(result.standardError)")
        let service = unitFolder(sandbox).appendingPathComponent("bibread-sync-lab.service")
        let timer = unitFolder(sandbox).appendingPathComponent("bibread-sync-lab.timer")
        #expect(result.standardOutput.contains("Wrote \(service.path)"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("systemctl --user enable --now bibread-sync-lab.timer"), "\(result.standardOutput)")
        let serviceText = try String(contentsOf: service, encoding: .utf8)
        let timerText = try String(contentsOf: timer, encoding: .utf8)
        #expect(serviceText.contains("ExecStart=\"\(ProcessRunner.bibreadExecutable.resolvingSymlinksInPath().path)\" \"sync\" \"--no-wait\" \"lab\""), "\(serviceText)")
        #expect(serviceText.contains("Type=oneshot"))
        #expect(serviceText.contains("SuccessExitStatus=75"))
        #expect(serviceText.contains("Environment=\"XDG_CONFIG_HOME=\(sandbox.root.appendingPathComponent("config").path)\""), "\(serviceText)")
        #expect(timerText.contains("OnUnitInactiveSec=45m"), "\(timerText)")
        #expect(timerText.contains("WantedBy=timers.target"))
        // Written whole, readable by systemd (no secret in them).
        var status = stat()
        #expect(stat(service.path, &status) == 0 && status.st_mode & 0o777 == 0o644)

        guard let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            // systemd is not installed for the tests on purpose; the content checks above stand.
            print("note: systemd-analyze is not installed: the units' syntax was not verified by systemd")
            return
        }
        let verify = try ProcessRunner.run(URL(fileURLWithPath: analyze), ["verify", "--man=no", service.path, timer.path],
                                           environment: ["SYSTEMD_LOG_LEVEL": "warning"])
        #expect(verify.status == 0, "\(verify.standardOutput)\(verify.standardError)")
        #expect(verify.standardError.isEmpty, "\(verify.standardError)")
    }

    @Test("install-sync-service leaves units alone when unchanged, refuses to replace one edited by hand, and replaces it with --force")
    func installKeepsAnEditedUnit() throws {
        let sandbox = try SyncSandbox()
        try sandbox.configure("[[remote]]\nname = \"lab\"\nurl = \"\(sandbox.remote.path)\"\n")
        #expect(try sandbox.bibread(["install-sync-service"]).status == 0)
        let timer = unitFolder(sandbox).appendingPathComponent("bibread-sync-lab.timer")
        #expect(try String(contentsOf: timer, encoding: .utf8).contains("OnUnitInactiveSec=30m"))
        let again = try sandbox.bibread(["install-sync-service", "lab"])
        #expect(again.status == 0)
        #expect(again.standardOutput.contains("Unchanged \(timer.path)"), "\(again.standardOutput)")

        let edited = try String(contentsOf: timer, encoding: .utf8).replacingOccurrences(of: "30m", with: "10m")
        try edited.write(to: timer, atomically: true, encoding: .utf8)
        let refused = try sandbox.bibread(["install-sync-service", "lab", "--every", "2h"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("\(timer.path) exists and differs from what bibread would write"), "\(refused.standardError)")
        #expect(try String(contentsOf: timer, encoding: .utf8) == edited, "the edited unit was kept")

        let forced = try sandbox.bibread(["install-sync-service", "lab", "--every", "2h", "--force"])
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(try String(contentsOf: timer, encoding: .utf8).contains("OnUnitInactiveSec=2h"))
    }

    @Test("A remote whose name has spaces and dashes gets unit names escaped as systemd-escape does, and an unknown remote is refused")
    func installEscapesNames() throws {
        let sandbox = try SyncSandbox()
        try sandbox.configure("[[remote]]\nname = \"my lab-2\"\nurl = \"\(sandbox.remote.path)\"\n")
        let result = try sandbox.bibread(["install-sync-service", "my lab-2"])
        #expect(result.status == 0, "\(result.standardError)")
        let names = try FileManager.default.contentsOfDirectory(atPath: unitFolder(sandbox).path).sorted()
        #expect(names == ["bibread-sync-my\\x20lab\\x2d2.service", "bibread-sync-my\\x20lab\\x2d2.timer"], "\(names)")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-escape") {
            let escaped = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/systemd-escape"), ["my lab-2"])
            #expect(names.first == "bibread-sync-\(escaped.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)).service")
        }
        let service = try String(contentsOf: unitFolder(sandbox).appendingPathComponent(names[0]), encoding: .utf8)
        #expect(service.contains("\"sync\" \"--no-wait\" \"my lab-2\""), "\(service)")

        let unknown = try sandbox.bibread(["install-sync-service", "elsewhere"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("'elsewhere' is not a remote bibread knows"), "\(unknown.standardError)")
    }
}
