import Foundation
import ReadingStateSync
import SyncEngine

/// What `bibread state status` and `bibread state forget` need: which machines write to the
/// remote, and dropping one of them.
extension ReadingStateExchange {
    /// One machine that shares its reading state through the remote.
    public struct MachineStatus: Sendable, Equatable {
        public let id: MachineID
        /// The name it gave itself (`device_name`), if it did.
        public let name: String?
        public let isThisMachine: Bool
        /// Its log files on the remote and their bytes.
        public let files: Int
        public let bytes: Int64
        /// When it last wrote one (seconds since 1970), if the remote says.
        public let lastWritten: Double?
        /// Whether it was forgotten (`state forget`).
        public let forgotten: Bool
    }

    /// The machines that write to the remote (and this one), with what they wrote; one listing.
    public func machines() throws -> [MachineStatus] {
        let listing = try listing()
        let known = try store.knownMachines()
        var ids = Set(listing.logs.map(\.machine)).union(listing.forgotten)
        if let this = store.machineID { ids.insert(this) }
        return ids.map { id in
            let logs = listing.logs.filter { $0.machine == id }
            return MachineStatus(id: id, name: known[id]?.name, isThisMachine: id == store.machineID, files: logs.count,
                                 bytes: logs.reduce(0) { $0 + ($1.remote.size ?? 0) }, lastWritten: logs.compactMap(\.remote.modified).max(),
                                 forgotten: listing.forgotten.contains(id) || known[id]?.forgotten == true)
        }.sorted { ($0.isThisMachine ? 0 : 1, $0.name ?? "~", $0.id) < ($1.isThisMachine ? 0 : 1, $1.name ?? "~", $1.id) }
    }

    /// The machine `query` names among `machines`: its id, the start of its id (4 characters or
    /// more), or its name (in any case).
    public static func machine(named query: String, among machines: [MachineStatus]) throws -> MachineStatus {
        let wanted = query.trimmingCharacters(in: .whitespaces)
        var found = machines.filter { $0.id.rawValue == wanted.lowercased() }
        if found.isEmpty && wanted.count >= 4 { found = machines.filter { $0.id.rawValue.hasPrefix(wanted.lowercased()) } }
        if found.isEmpty { found = machines.filter { $0.name?.lowercased() == wanted.lowercased() } }
        guard found.count == 1, let machine = found.first else {
            let names = machines.map { "\($0.name ?? "unnamed") (\($0.id.rawValue.prefix(8)))" }.joined(separator: ", ")
            throw StateMachineLookupError(query: wanted, matches: found.count, known: names)
        }
        return machine
    }

    /// Drops `machine` from the shared state: first merges all it wrote, records again as this
    /// machine's what of it is still to be seen (so nothing visible is lost), shares that, marks
    /// the machine forgotten on the remote (`ID.forgotten`, which every machine's next sync
    /// reads) and removes its log files. Returns how many files were removed.
    public func forget(_ machine: MachineStatus) throws -> Int {
        guard !machine.isThisMachine else { throw StateStoreError.cannotForgetThisMachine }
        _ = try run()
        _ = try store.forget(machine: machine.id)
        _ = try run()
        let marker = Self.folder + "/" + machine.id.rawValue + Self.forgottenSuffix
        do {
            _ = try transport.upload([], to: marker, replacing: nil)
        } catch TransportError.remoteChanged {
            // Marked already (by another machine).
        }
        var removed = 0
        for log in try listing().logs where log.machine == machine.id {
            guard let current = try transport.download(log.path) else { continue }
            try transport.remove(log.path, ifVersion: current.version)
            removed += 1
        }
        return removed
    }
}

/// A machine name or id that names no machine, or several.
public struct StateMachineLookupError: Error, CustomStringConvertible, Equatable {
    public let query: String
    public let matches: Int
    public let known: String

    public var description: String {
        matches == 0 ? "no machine is named '\(query)'" + (known.isEmpty ? "" : " (machines: \(known))")
                     : "'\(query)' names \(matches) machines: give its id (machines: \(known))"
    }
}
