import ArgumentParser
import BibreadServices
import Foundation
import SyncEngine

/// The remote a `state` command works on, opened for writing, with the reading store.
struct StateRemote {
    let remote: Remote
    let locations: RemoteLocations
    let transport: any UploadingTransport
    let session: CurlSession
    let store: ReadingStore
    let config: Config

    /// The remote `name` (nil: the only one configured or synced here); a remote bibread cannot
    /// write to, or one that cannot be reached, is an error with a message.
    static func open(_ name: String?) throws -> StateRemote {
        let config = Config.load(from: Directories().config)
        let remote: Remote
        if name == nil, config.remotes.isEmpty {
            let synced = RemoteLocations.knownNames(configured: []).compactMap { RemoteLocations(name: $0).savedRemote() }
            guard synced.count == 1, let only = synced.first else {
                Console.error(synced.isEmpty ? "bibread: no remote has been synced here yet: bibread sync URL first"
                                             : "bibread: name a remote: \(synced.map(\.name).sorted().joined(separator: ", "))")
                throw ExitCode(64)
            }
            remote = only
        } else {
            remote = try RemoteResolution.remote(named: name, config: config)
        }
        let opened: (CurlSession, any Transport, ReadingStore)
        do {
            let session = try CurlSession()
            opened = (session, try TransportFactory.make(remote, session: session), try ReadingStore(directory: Directories().state))
        } catch {
            Console.error("bibread: \(ErrorText.plain(error))")
            throw ExitStatus.problems
        }
        guard let transport = opened.1 as? any UploadingTransport else {
            Console.error("bibread: remote '\(remote.name)' cannot be written to (a plain HTTP folder): the reading state is not shared through it")
            throw ExitStatus.problems
        }
        return StateRemote(remote: remote, locations: RemoteLocations(name: remote.name), transport: transport, session: opened.0,
                           store: opened.2, config: config)
    }

    /// The exchange of the reading state with this remote.
    var exchange: ReadingStateExchange {
        ReadingStateExchange(store: store, transport: transport, remoteName: remote.name,
                             deviceName: MachineIdentity.defaultName(configured: config.deviceName))
    }

    /// Runs `body` holding the remote's sync lock (one sync of a remote at a time, and a state
    /// command is one).
    func locked<Value>(_ body: () throws -> Value) throws -> Value {
        let lock = try SyncLock.acquire(locations, wait: true, waiting: { holder in
            Console.error("bibread: waiting for the other sync of '\(remote.name)' (\(holder))…")
        }, isCancelled: { false })
        defer { lock.release() }
        return try body()
    }
}
