import ArgumentParser
import BibModel
import Foundation
import PDFText
import Reader
import SyncEngine

/// `bibread sync`: the .bib files first, then only the chosen PDFs, into the cache.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Download a remote's .bib files, then the PDFs of chosen groups into the cache.",
        discussion: """
        REMOTE is a [[remote]] name from config.toml, the NAME of a remote synced before, or a \
        folder, file://, http(s):// (WebDAV), sftp:// or dropbox:/path URL. Without it, the only \
        configured remote is used. The .bib \
        files go to $XDG_DATA_HOME/bibread/remotes/NAME/ (replaced only by a complete download \
        that parses and keeps nearly all references; the replaced copy is kept in .previous/), \
        PDFs to $XDG_CACHE_HOME/bibread/NAME/. One sync of a remote runs at a time: another one \
        waits for it (or, with --no-wait, exits with status 75). Ctrl-C stops cleanly; the next \
        sync resumes. Afterwards, NAME works wherever a .bib path does: bibread NAME.
        """)

    @Argument(help: ArgumentHelp("A remote's name or URL.", valueName: "remote"))
    var remote: String?

    @Option(name: .customLong("group"), help: ArgumentHelp("Download the PDFs of this group (repeatable; Parent/Child for nested groups).", valueName: "name"))
    var groups: [String] = []

    @Option(help: ArgumentHelp("Download the PDFs of references whose yes/no field is set (Read, Sync).", valueName: "name"))
    var field: String?

    @Flag(help: "Download every linked PDF.")
    var allPdfs = false

    @Flag(help: "Say what would be downloaded, planned from the remote's current .bib files (fetched to a temporary folder); change nothing here.")
    var dryRun = false

    @Flag(help: "One JSON object per event on standard output.")
    var json = false

    @Option(help: ArgumentHelp("Downloads at once (default from config, else 4).", valueName: "n"))
    var parallel: Int?

    @Option(help: ArgumentHelp("The name to keep a URL's library under (default: from the URL).", valueName: "name"))
    var name: String?

    @Flag(help: "When another sync of this remote is running, exit at once with status 75 instead of waiting for it to end.")
    var noWait = false

    @Flag(help: "Put the remote's .bib in place even if it drops more than 5% of the references of the copy in use (it must still be complete and read as BibTeX).")
    var accept = false

    func validate() throws {
        if let parallel, !(1...32).contains(parallel) { throw ValidationError("--parallel must be from 1 to 32") }
        if let name, !RemoteName.isPlain(name) {
            throw ValidationError("--name must be a plain folder name (not empty, no '/', not starting with '.')")
        }
    }

    func run() throws {
        let config = Config.load(from: Directories().config)
        var remote = try RemoteResolution.remote(named: self.remote, config: config, keptAs: name)
        if let name { remote.name = name }
        let locations = RemoteLocations(name: remote.name)
        // A dry run changes nothing here; a configured remote's URL is config.toml's to hold.
        if !dryRun && !config.remotes.contains(where: { $0.name == remote.name }) {
            try RemoteResolution.keepPasswordPrivate(&remote, locations: locations)
        }
        let session: CurlSession
        let transport: any Transport
        do {
            session = try CurlSession()
            transport = try TransportFactory.make(remote, session: session)
        } catch {
            Console.error("bibread: \(ErrorText.plain(error))")
            throw ExitStatus.problems
        }
        var options = SyncOptions()
        options.selection = SyncSelection(groups: groups, field: field, allPDFs: allPdfs)
        options.dryRun = dryRun
        options.parallel = parallel ?? config.parallelDownloads
        options.waitForOtherSync = !noWait
        options.acceptFewerReferences = accept
        options.documentCheck = { PDFDocument.openingProblem(path: $0) }
        options.cacheLimit = config.cacheLimit
        if !config.syncOnMetered && NetworkState.isMetered() { options.fetchPDFs = false }
        let reporter = SyncReporter(json: json, terminal: Console.isErrorTerminal)
        let cancel = CancelOnInterrupt()
        let summary: SyncSummary
        do {
            summary = try Syncer(remote: remote, locations: locations, transport: transport, session: session)
                .run(options, events: reporter.report, isCancelled: cancel.isCancelled)
        } catch TransferFailure.cancelled {
            // Ctrl-C while waiting to ask a busy server again.
            reporter.finishLine()
            Console.error("Cancelled")
            throw ExitCode(130)
        } catch let error as SyncLockError {
            reporter.finishLine()
            Console.error("bibread: \(error)")
            if case .busy = error { throw ExitStatus.busy }
            throw ExitCode(130)
        } catch {
            reporter.finishLine()
            Console.error("bibread: sync of '\(remote.name)' failed: \(ErrorText.plain(error))")
            throw ExitStatus.problems
        }
        if !summary.problems.isEmpty && !json {
            for problem in summary.problems { Console.error("bibread: \(problem)") }
        }
        if summary.cancelled { throw ExitCode(130) }
        if !summary.succeeded { throw ExitStatus.problems }
    }
}

/// Finds a remote by name (config.toml, or one synced before) or URL.
enum RemoteResolution {
    /// `name` (`--name`) is the name a URL's library is kept under, instead of one derived from it.
    static func remote(named argument: String?, config: Config, keptAs name: String? = nil) throws -> Remote {
        guard let argument else {
            if config.remotes.count == 1, let only = config.remotes.first { return only }
            Console.error(config.remotes.isEmpty
                ? "bibread: name a remote URL (or add a [[remote]] to config.toml)"
                : "bibread: name a remote: \(config.remotes.map(\.name).joined(separator: ", "))")
            throw ExitCode(64)
        }
        if let configured = config.remotes.first(where: { $0.name == argument }) { return configured }
        do {
            var remote = try Remote(url: argument)
            if let name {
                remote.name = name
                return remote
            }
            let derived = remote.name
            remote.name = freeName(for: remote, configured: config.remotes)
            if remote.name != derived, RemoteLocations(name: remote.name).savedRemote() == nil {
                Console.error("bibread: '\(derived)' is kept for another remote; this one is kept as '\(remote.name)' (give --name to choose)")
            }
            return remote
        } catch {
            // A remote synced before by URL is known by the name it was kept under.
            if !argument.contains("/"), !argument.hasPrefix("."), let saved = RemoteLocations(name: argument).savedRemote(),
               saved.name == argument {
                return saved
            }
            let known = config.remotes.map(\.name)
            Console.error("bibread: '\(URLText.withoutCredentials(argument))' is neither a configured remote\(known.isEmpty ? "" : " (\(known.joined(separator: ", ")))") nor a URL or folder")
            throw ExitCode(64)
        }
    }

    /// Moves a password given in the remote's URL (or left in its settings by an earlier bibread)
    /// to the credentials file, which only the user may read, and says so: the remote's settings,
    /// which everyone may read, then hold the URL without it.
    static func keepPasswordPrivate(_ remote: inout Remote, locations: RemoteLocations) throws {
        let settingsHeldIt = locations.savedRemote()?.url == remote.url
        let store = CredentialStore()
        do {
            guard try remote.movePassword(to: store) else { return }
        } catch {
            Console.error("bibread: cannot keep the password of remote '\(remote.name)' in \(store.file.path): \(error)")
            throw ExitStatus.problems
        }
        if settingsHeldIt {
            // Now, not only when the sync gets that far.
            try? locations.saveRemote(remote)
            Console.error("bibread: the password of remote '\(remote.name)' was in \(locations.remoteFile.path), which everyone may read: it is now kept in \(store.file.path), which only you may read")
        } else {
            Console.error("bibread: the password in the URL is kept in \(store.file.path), which only you may read, not in the remote's settings")
        }
    }

    /// The name derived from a URL, or, when a configured remote or one synced from another URL
    /// has it already, the first of `NAME-2`, `NAME-3`, … that is free or kept for this URL: two
    /// folders named alike must not replace each other's library.
    static func freeName(for remote: Remote, configured: [Remote]) -> String {
        func isFree(_ name: String) -> Bool {
            // Settings hold a URL without its password.
            let url = URLText.withoutPassword(remote.url)
            if let other = configured.first(where: { $0.name == name }) { return URLText.withoutPassword(other.url) == url }
            let locations = RemoteLocations(name: name)
            if let saved = locations.savedRemote() { return URLText.withoutPassword(saved.url) == url }
            return !FileManager.default.fileExists(atPath: locations.library.path)
        }
        if isFree(remote.name) { return remote.name }
        for number in 2...999 where isFree("\(remote.name)-\(number)") { return "\(remote.name)-\(number)" }
        return remote.name
    }

    /// The .bib paths library arguments name: each itself, or a synced remote's .bib files.
    ///
    /// A remote known here (configured, or kept by an earlier sync) with no .bib on this machine
    /// yet is reported with the command that brings it and left out; when that leaves nothing of
    /// what was named, exits with status 2 rather than fall back to another library.
    static func libraryPaths(_ arguments: [String]) throws -> [String] {
        let remotes = Config.load(from: Directories().config).remotes
        var unsynced = 0
        let paths = arguments.flatMap { argument -> [String] in
            if argument.contains("/") || argument.hasSuffix(".bib") || FileManager.default.fileExists(atPath: argument) { return [argument] }
            let files = RemoteLocations(name: argument).libraryFiles
            if !files.isEmpty { return files }
            guard RemoteLocations.knownNames(configured: remotes).contains(argument) else { return [argument] }
            Console.error("bibread: remote '\(argument)' has no library on this machine yet; run 'bibread sync \(argument)'")
            unsynced += 1
            return []
        }
        if unsynced > 0 && paths.isEmpty { throw ExitStatus.unreadable }
        let absolute = paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        RemoteLocations.registerAliases(forLibraries: absolute, remotes: remotes)
        return paths
    }
}

/// Ctrl-C stops a sync between two steps of curl's loop (polled), not in the middle of a write.
final class CancelOnInterrupt: @unchecked Sendable {
    nonisolated(unsafe) private static var interrupted: Int32 = 0

    init() {
        signal(SIGINT) { _ in CancelOnInterrupt.interrupted = 1 }
        signal(SIGTERM) { _ in CancelOnInterrupt.interrupted = 1 }
        // A parent may have started us with these signals blocked (some process launchers do):
        // unblock them, or Ctrl-C would wait until the end of the transfer.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    func isCancelled() -> Bool { CancelOnInterrupt.interrupted != 0 }
}

/// Whether NetworkManager says the connection is metered: `nmcli` on PATH lists each device's
/// `GENERAL.METERED` (`yes`, `yes (guessed)`, `no`, `unknown`); a guessed yes counts as yes, as
/// NetworkManager's documentation advises. No nmcli, or no answer, counts as not metered.
enum NetworkState {
    static func isMetered(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        guard let nmcli = folders.map({ $0 + "/nmcli" }).first(where: FileManager.default.isExecutableFile(atPath:)) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: nmcli)
        process.arguments = ["-t", "-f", "GENERAL.METERED", "device", "show"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return false }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").contains { line in
            line.lowercased().split(separator: ":", maxSplits: 1).last.map { $0.hasPrefix("yes") } ?? false
        }
    }
}
