import ArgumentParser
import BibreadServices
import DiskIO
import Foundation
import SyncEngine

/// `bibread install-sync-service`: writes a systemd user service and timer that sync a remote
/// every interval, and says how to start them.
struct InstallSyncServiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install-sync-service",
        abstract: "Write a systemd user service and timer that sync a remote every interval.",
        discussion: """
        Writes bibread-sync-NAME.service (one 'bibread sync --no-wait NAME') and \
        bibread-sync-NAME.timer (two minutes after login, then INTERVAL after each sync ends) to \
        $XDG_CONFIG_HOME/systemd/user/, and prints the systemctl commands that start them; it \
        runs systemctl only with --enable. A unit changed since bibread wrote it is kept unless \
        --force is given. The sync respects sync_on_metered. Credentials from environment \
        variables (user_env, password_env, token_env) must be given to the service manager too \
        (systemctl --user set-environment), or use the credentials file.
        """)

    @Argument(help: ArgumentHelp("A remote's name (default: the only one configured).", valueName: "remote"))
    var remote: String?

    @Option(help: ArgumentHelp("How long to wait after a sync before the next (default: sync_every, else 30m).", valueName: "interval"))
    var every: String?

    @Flag(help: "Replace units that differ from what bibread would write.")
    var force = false

    @Flag(help: "Also run systemctl --user daemon-reload and enable --now the timer.")
    var enable = false

    func validate() throws {
        if let every, SyncInterval(parsing: every) == nil { throw ValidationError("--every must be \(SyncInterval.expected)") }
    }

    func run() throws {
        let config = Config.load(from: Directories().config)
        let name = try remoteName(config: config)
        let interval = every.flatMap(SyncInterval.init(parsing:)) ?? config.syncEvery ?? SyncInterval(seconds: 1_800)
        let environment = ProcessInfo.processInfo.environment
        let units = SyncServiceUnits(remote: name, interval: interval, executable: ThisProgram.path, environment: environment)
        let folder = Directories().config.deletingLastPathComponent().appendingPathComponent("systemd/user")
        let files = [(folder.appendingPathComponent(units.serviceName), units.service), (folder.appendingPathComponent(units.timerName), units.timer)]
        // Nothing is written unless every file can be.
        let changed = files.filter { file, text in
            FileManager.default.contents(atPath: file.path).map { $0 != Data(text.utf8) } ?? false
        }
        if !changed.isEmpty && !force {
            for (file, _) in changed {
                Console.error("bibread: \(file.path) exists and differs from what bibread would write (changed by hand, or for other settings); --force replaces it")
            }
            throw ExitStatus.problems
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (file, text) in files {
                let same = FileManager.default.contents(atPath: file.path) == Data(text.utf8)
                if !same { try AtomicFile.write(Data(text.utf8), to: file, mode: 0o644) }
                Console.print("\(same ? "Unchanged" : "Wrote") \(file.path)")
            }
        } catch {
            Console.error("bibread: \(error)")
            throw ExitStatus.problems
        }
        let commands = [["daemon-reload"], ["enable", "--now", units.timerName]]
        if enable {
            for arguments in commands {
                Console.print("Running systemctl --user \(arguments.joined(separator: " "))")
                let status = Self.systemctl(arguments)
                guard status == 0 else {
                    Console.error("bibread: systemctl --user \(arguments.joined(separator: " ")) failed (status \(status))")
                    throw ExitStatus.problems
                }
            }
        } else {
            Console.print("To start it now and at each login:")
            for arguments in commands { Console.print("  systemctl --user \(arguments.joined(separator: " "))") }
        }
        Console.print("It syncs '\(name)' 2 minutes after login, then \(interval) after each sync ends; its log: journalctl --user -u \(units.serviceName)")
    }

    /// The remote named (config.toml's, or one synced before), or the only one configured.
    private func remoteName(config: Config) throws -> String {
        let known = config.remotes.map(\.name)
        guard let remote else {
            if known.count == 1, let only = known.first { return only }
            Console.error(known.isEmpty ? "bibread: name a remote synced before (or add a [[remote]] to config.toml)"
                                        : "bibread: name a remote: \(known.joined(separator: ", "))")
            throw ExitCode(64)
        }
        if known.contains(remote) { return remote }
        if RemoteName.isPlain(remote), RemoteLocations(name: remote).savedRemote()?.name == remote,
           !remote.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return remote
        }
        Console.error("bibread: '\(URLText.withoutCredentials(remote))' is not a remote bibread knows\(known.isEmpty ? "" : " (configured: \(known.joined(separator: ", ")))"); sync it once by URL with --name, or add a [[remote]] to config.toml")
        throw ExitCode(64)
    }

    private static func systemctl(_ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["systemctl", "--user"] + arguments
        do {
            try process.run()
        } catch {
            return 127
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
