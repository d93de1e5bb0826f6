import ArgumentParser
import BibreadServices
import Foundation
import SyncEngine

/// The remotes a cache command works on: the one named, else every configured or synced one.
struct CacheRemoteOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("A remote's name (default: every remote).", valueName: "remote"))
    var remote: String?

    /// The remote named, or every remote known here (configured, synced, or with a cache); a
    /// name none of them has is a usage error (exit 64), so that nothing is made for a typo.
    func remoteNames(config: Config) throws -> [String] {
        let names = RemoteLocations.knownNames(configured: config.remotes)
        guard let remote else { return names.sorted() }
        guard names.contains(remote) else {
            Console.error("bibread: no remote named '\(remote)'\(names.isEmpty ? "" : " (remotes: \(names.sorted().joined(separator: ", ")))")")
            throw ExitCode(64)
        }
        return [remote]
    }
}
