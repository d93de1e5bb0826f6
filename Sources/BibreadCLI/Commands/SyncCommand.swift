import ArgumentParser
import BibModel
import BibreadServices
import Foundation
import PDFText
import SyncEngine

/// `bibread sync`: the .bib files first, then only the chosen PDFs, into the cache.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Download a remote's .bib files, then the PDFs of chosen groups into the cache.",
        discussion: """
        REMOTE is a [[remote]] name from config.toml, the NAME of a remote synced before, or a \
        folder, file://, http(s):// (WebDAV), sftp://, dropbox:/path URL, or rclone:REMOTE:path (a remote \
        of your rclone configuration, through the rclone program). Without it, the only \
        configured remote is used. The .bib \
        files go to $XDG_DATA_HOME/bibread/remotes/NAME/ (replaced only by a complete download \
        that parses and keeps nearly all references; the replaced copy is kept in .previous/), \
        PDFs to $XDG_CACHE_HOME/bibread/NAME/. One sync of a remote runs at a time: another one \
        waits for it (or, with --no-wait, exits with status 75). Ctrl-C stops cleanly; the next \
        sync resumes. Afterwards, NAME works wherever a .bib path does: bibread NAME. With --every, \
        it syncs again after each interval until stopped (SIGTERM ends it with status 0), for a \
        systemd user service or a tmux window; a failed round is reported and the next one runs.
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

    @Flag(help: "Put the remote's .bib in place even if it drops more than 5% of the references of the copy in use, or if the copy in use holds changes made outside bibread that could not be pushed (it must still be complete and read as BibTeX; the copy it replaces is kept in .previous/).")
    var accept = false

    @Option(help: ArgumentHelp("Keep running: sync again every INTERVAL (30m, 2h, 90s) until SIGTERM or Ctrl-C.", valueName: "interval"))
    var every: String?

    /// Set by the reader when it leaves a sync to finish in the background: no terminal, SIGHUP
    /// ignored, and how it ended recorded for the reader's next start (`BackgroundSync`).
    @Flag(help: .hidden)
    var detached = false

    func validate() throws {
        if let every {
            guard SyncInterval(parsing: every) != nil else { throw ValidationError("--every must be \(SyncInterval.expected)") }
            if dryRun { throw ValidationError("--every cannot be used with --dry-run") }
            if detached { throw ValidationError("--every cannot be used with --detached") }
        }
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
        options.readingState = ReadingStateExchange.sharing(remoteName: remote.name, deviceName: config.deviceName)
        let reporter = SyncReporter(json: json, terminal: Console.isErrorTerminal)
        let cancel = CancelOnInterrupt()
        let syncer = Syncer(remote: remote, locations: locations, transport: transport, session: session)
        func round() throws -> SyncSummary {
            // Checked each round: a long-lived job outlives the network it started on.
            options.fetchPDFs = config.syncOnMetered || !NetworkState.isMetered()
            return try runRound(syncer, options: options, reporter: reporter, cancel: cancel, remote: remote.name)
        }
        if let interval = every.flatMap(SyncInterval.init(parsing:)) {
            try RepeatedSync(remote: remote.name, interval: interval, cancel: cancel).run(round)
            return
        }
        let background = detached ? BackgroundSync(remote: remote.name) : nil
        if let background {
            // Started by the reader in a session of its own: a terminal closing is no reason to stop.
            signal(SIGHUP, SIG_IGN)
            background.forgetOutcome()
        }
        let summary: SyncSummary
        do {
            summary = try round()
        } catch let failure as RoundFailure {
            try? background?.record(.init(succeeded: false, text: failure.message))
            throw failure.status
        }
        try? background?.record(.init(succeeded: summary.succeeded, text: summary.succeeded ? Self.describe(summary)
                                           : summary.cancelled ? "it was stopped" : (summary.problems.first ?? Self.firstFailure(summary))))
        if !summary.problems.isEmpty && !json {
            for problem in summary.problems { Console.error("bibread: \(problem)") }
        }
        if summary.cancelled { throw ExitCode(130) }
        if !summary.succeeded { throw ExitStatus.problems }
    }

    /// One sync: its events reported; a sync that could not run says why on standard error and
    /// throws the status to exit with.
    private func runRound(_ syncer: Syncer, options: SyncOptions, reporter: SyncReporter, cancel: CancelOnInterrupt,
                          remote: String) throws -> SyncSummary {
        do {
            return try syncer.run(options, events: reporter.report, isCancelled: cancel.isCancelled)
        } catch TransferFailure.cancelled {
            // Ctrl-C while waiting to ask a busy server again.
            reporter.finishLine()
            Console.error("Cancelled")
            throw RoundFailure(message: "it was stopped", status: ExitCode(130))
        } catch let error as SyncLockError {
            reporter.finishLine()
            Console.error("bibread: \(error)")
            if case .busy = error { throw RoundFailure(message: "\(error)", status: ExitStatus.busy) }
            throw RoundFailure(message: "\(error)", status: ExitCode(130))
        } catch {
            reporter.finishLine()
            let reason = ErrorText.plain(error)
            Console.error("bibread: sync of '\(remote)' failed: \(reason)")
            throw RoundFailure(message: reason, status: ExitStatus.problems)
        }
    }

    /// What a finished sync did, in a few words: "3 downloaded, 2 already here".
    static func describe(_ summary: SyncSummary) -> String {
        "\(summary.downloaded) downloaded, \(summary.current) already here"
    }

    /// The first PDF that failed, and why.
    static func firstFailure(_ summary: SyncSummary) -> String {
        guard let first = summary.failed.first else { return "it did not finish" }
        return "\(summary.failed.count) failed, first \(first): \(summary.failureReasons[first] ?? "it failed")"
    }
}

/// A sync that could not run (a lock, a transport failure, a stop), already reported on standard
/// error; `status` is the exit status for it.
struct RoundFailure: Error {
    let message: String
    let status: ExitCode
}
