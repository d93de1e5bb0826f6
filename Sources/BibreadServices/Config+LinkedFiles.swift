import Foundation
import SyncEngine

extension Config {
    /// Tells `locator` where the linked files of the local libraries among `paths` may be: each
    /// library's folder, and the `path_mapping` of its `[[library]]` table (a synced remote's
    /// library is found in its cache instead: `RemoteLocations.registerAliases`).
    public func registerLinkedFileSearch(forLibraries paths: [String], in locator: LinkedFileLocator = .shared) {
        let configured = Dictionary(librarySettings.map { (Self.canonical($0.path), $0.pathMapping) }, uniquingKeysWith: { $0.merging($1) { $1 } })
        for path in paths {
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            guard RemoteLocations.owning(absolute) == nil else { continue }
            locator.registerLocalLibrary(folder: (absolute as NSString).deletingLastPathComponent,
                                         pathMapping: configured[Self.canonical(absolute)] ?? [:])
        }
    }

    /// The path with symbolic links resolved, so that `~/Papers/library.bib` in config.toml and
    /// the same file named through a link are one library.
    private static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
