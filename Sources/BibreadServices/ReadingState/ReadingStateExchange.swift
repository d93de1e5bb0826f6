import Foundation
import ReadingStateSync
import SyncEngine

/// Shares the reading state through a remote: each machine writes only log files of its own,
/// `.bibread/state/MACHINE-SEQUENCE.jsonl` at the remote's root, and reads everyone's.
///
/// One run lists the folder (one request), downloads the files not merged here yet (a sync with
/// nothing new downloads nothing), checks each (`StateLog`: a truncated, garbage or huge log is
/// refused with its line, and so is a log that holds another machine's operations or is dated
/// far ahead) and merges the good ones in one transaction, then uploads this machine's new
/// operations as a new file, created only where no file is (never over one). An upload cut
/// short leaves no file (the transports write a file whole or not at all); its operations stay
/// pending and go in the next run's file. When this machine's files grow past a bound, it
/// writes them again as one file and removes the old ones: a compaction touches only its own
/// files, never another machine's.
public struct ReadingStateExchange {
    /// The folder of the logs, from the remote's root.
    public static let folder = ".bibread/state"
    /// The name of a file that marks a machine as forgotten (`state forget`).
    static let forgottenSuffix = ".forgotten"

    let store: ReadingStore
    let transport: any UploadingTransport
    let remoteName: String
    let deviceName: String
    /// This machine's files are written again as one when there are more than this many.
    public var compactionFileCount = 16
    /// … or when they hold more than this many bytes and the operations kept here would be
    /// less than half of it.
    public var compactionBytes: Int64 = 4 << 20

    /// An exchange of `store`'s state with the remote `remoteName` through `transport`, naming
    /// this machine `deviceName`.
    public init(store: ReadingStore, transport: any UploadingTransport, remoteName: String, deviceName: String) {
        self.store = store
        self.transport = transport
        self.remoteName = remoteName
        self.deviceName = deviceName
    }

    /// What a sync runs to share the reading state through the remote `remoteName`
    /// (`SyncOptions.readingState`): the state store of `state`, this machine named
    /// `deviceName` (config.toml's `device_name`; nil: the host name).
    public static func sharing(remoteName: String, deviceName configured: String?,
                               state: URL = Directories().state) -> @Sendable (any UploadingTransport) throws -> [String] {
        let deviceName = MachineIdentity.defaultName(configured: configured)
        return { transport in
            let store = try ReadingStore(directory: state)
            let outcome = try ReadingStateExchange(store: store, transport: transport, remoteName: remoteName, deviceName: deviceName).run()
            return outcome.notices + (outcome.summary.map { ["reading state: " + $0] } ?? [])
        }
    }

    /// A log file of the folder, by its name.
    struct LogFile: Equatable {
        let machine: MachineID
        let sequence: Int
        let remote: RemoteFile
        var path: String { remote.path }
        /// What the store keeps to know a file merged: a machine never writes a file again under
        /// its name, so its size tells a file cut short or replaced by another program.
        var version: String { "size:\(remote.size ?? -1)" }
    }

    /// What the folder holds: the logs and the machines marked forgotten.
    struct Listing {
        var logs: [LogFile] = []
        var forgotten: Set<MachineID> = []
        var exists = false
    }

    /// Lists the folder (one request).
    func listing() throws -> Listing {
        guard let files = try transport.listIfPresent(Self.folder) else { return Listing() }
        var listing = Listing(exists: true)
        for file in files where !file.isFolder {
            let name = String(file.path.split(separator: "/").last ?? "")
            if name.hasSuffix(Self.forgottenSuffix), let id = MachineID(rawValue: String(name.dropLast(Self.forgottenSuffix.count))) {
                listing.forgotten.insert(id)
            } else if let (machine, sequence) = Self.parse(name) {
                listing.logs.append(LogFile(machine: machine, sequence: sequence, remote: file))
            }
        }
        listing.logs.sort { ($0.machine, $0.sequence) < ($1.machine, $1.sequence) }
        return listing
    }

    /// The machine and sequence number of a log's file name; nil for any other name.
    static func parse(_ name: String) -> (MachineID, Int)? {
        guard name.hasSuffix(".jsonl"), let dash = name.lastIndex(of: "-") else { return nil }
        let digits = name[name.index(after: dash)..<name.index(name.endIndex, offsetBy: -6)]
        guard digits.count == 8, digits.allSatisfy(\.isASCII), let sequence = Int(digits), let machine = MachineID(rawValue: String(name[..<dash])) else {
            return nil
        }
        return (machine, sequence)
    }

    /// The name of a log file of `machine`.
    static func fileName(machine: MachineID, sequence: Int) -> String {
        let digits = String(sequence)
        return "\(machine.rawValue)-\(String(repeating: "0", count: max(0, 8 - digits.count)))\(digits).jsonl"
    }

    /// Runs one exchange; returns what to tell the user.
    public func run() throws -> StateExchangeOutcome {
        var outcome = StateExchangeOutcome()
        guard let machine = store.machineID else {
            throw StateStoreError.noMachine(store.machineProblem ?? "no machine id")
        }
        try store.publishDeviceName(deviceName)
        let listing = try listing()
        if listing.forgotten.contains(machine) {
            outcome.notices.append("this machine was forgotten on remote '\(remoteName)' (bibread state forget): its reading state is "
                                   + "no longer shared from here; move \(store.machineIDFile) away to join again as a new machine")
            return outcome
        }
        let known = try store.knownMachines()
        for forgotten in listing.forgotten where known[forgotten]?.forgotten != true {
            _ = try store.forget(machine: forgotten)
        }
        let merged = try store.mergedStateFiles(remote: remoteName)
        var read: [StateLogFile] = []
        for log in listing.logs where !listing.forgotten.contains(log.machine) && merged[log.path] != log.version {
            do {
                read.append(StateLogFile(path: log.path, version: log.version, lines: try fetch(log)))
                outcome.filesRead += 1
            } catch let problem as StateLogRefusal {
                outcome.notices.append("remote '\(remoteName)': \(log.path): \(problem.reason); its changes were not merged")
            }
        }
        if !read.isEmpty {
            let result = try store.merge(read, remote: remoteName)
            outcome.newOperations = result.newOperations
            outcome.notices += result.reports
        }
        try upload(listing: listing, machine: machine, outcome: &outcome)
        return outcome
    }

    /// A log the exchange refuses to merge, and why.
    struct StateLogRefusal: Error {
        let reason: String
    }

    /// Downloads and checks one log.
    private func fetch(_ log: LogFile) throws -> [StateLogLine] {
        if let size = log.remote.size, size > Int64(StateLog.maximumBytes) {
            throw StateLogRefusal(reason: "the log is \(size) bytes, more than the \(StateLog.maximumBytes) bytes allowed")
        }
        guard let contents = try transport.download(log.path) else {
            throw StateLogRefusal(reason: "the log went away while it was read")
        }
        let lines: [StateLogLine]
        do {
            lines = try StateLog.decodeLines(Data(contents.contents))
        } catch {
            throw StateLogRefusal(reason: error.description)
        }
        let now = store.wallClock()
        for (index, operation) in lines.map(\.operation).enumerated() {
            if operation.machine != log.machine {
                throw StateLogRefusal(reason: "line \(index + 1): the operation is of machine \(operation.machine), not of \(log.machine) whose log this is")
            }
            let ahead = operation.timestamp.wallMilliseconds - now
            if ahead > HybridLogicalClock.defaultMaximumDrift {
                throw StateLogRefusal(reason: "line \(index + 1): dated \(ahead / 3_600_000) h ahead of this machine's clock "
                                      + "(is that machine's clock right?)")
            }
        }
        return lines
    }

    /// Uploads this machine's pending operations as a new file, or all of its operations as one
    /// file in place of its old ones when they have grown.
    private func upload(listing: Listing, machine: MachineID, outcome: inout StateExchangeOutcome) throws {
        let own = listing.logs.filter { $0.machine == machine }
        let ownBytes = own.reduce(Int64(0)) { $0 + ($1.remote.size ?? 0) }
        let pending = try store.pendingOperations(remote: remoteName)
        let compacting = own.count >= compactionFileCount || (ownBytes > compactionBytes && own.count > 1)
        // A name alone is not worth a file: a machine that has read nothing writes nothing (a
        // remote that takes no writes is not asked to).
        let changes = pending.contains(where: \.isChange)
        guard changes || compacting else { return }
        let operations = compacting ? try store.ownOperations() : pending
        if !listing.exists { try transport.createFolder(Self.folder) }
        let contents = [UInt8](StateLog.encode(operations))
        var sequence = (own.map(\.sequence).max() ?? 0) + 1
        var path = Self.folder + "/" + Self.fileName(machine: machine, sequence: sequence)
        // A file of that name appeared meanwhile (another sync of this machine): the next name.
        for attempt in 1...3 {
            do {
                _ = try transport.upload(contents, to: path, replacing: nil)
                break
            } catch TransportError.remoteChanged where attempt < 3 {
                sequence += 1
                path = Self.folder + "/" + Self.fileName(machine: machine, sequence: sequence)
            }
        }
        var removed: [String] = []
        if compacting {
            for old in own {
                // Only this machine's own files, each only as it is now (a file never changes
                // once written; one already gone was removed by another sync of this machine).
                if let current = try transport.download(old.path) {
                    try transport.remove(old.path, ifVersion: current.version)
                }
                removed.append(old.path)
            }
            outcome.compacted = own.count
        }
        try store.noteUploaded(operations, file: path, version: "size:\(contents.count)", remote: remoteName, removed: removed)
        outcome.uploadedOperations = pending.filter(\.isChange).count
    }
}

/// What one exchange of the reading state did.
public struct StateExchangeOutcome: Sendable, Equatable {
    /// Log files downloaded and merged.
    public var filesRead = 0
    /// Operations new here from them.
    public var newOperations = 0
    /// This machine's operations uploaded.
    public var uploadedOperations = 0
    /// This machine's files written again as one (0: no compaction).
    public var compacted = 0
    /// What to tell the user: logs refused, what merges decided.
    public var notices: [String] = []

    public init() {}

    /// One line that says what moved, or nil when nothing did.
    public var summary: String? {
        var parts: [String] = []
        if newOperations > 0 { parts.append("\(newOperations) change\(newOperations == 1 ? "" : "s") from other machines merged") }
        if uploadedOperations > 0 { parts.append("\(uploadedOperations) of this machine's shared") }
        if compacted > 0 { parts.append("this machine's \(compacted) log files written as one") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
