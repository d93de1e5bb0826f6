import BibreadValues
import DiskIO
import Foundation

/// The state file, `$XDG_STATE_HOME/bibread/state.json`, written atomically.
public struct SessionStore: Sendable {
    struct Contents: Codable {
        var lastLibrary: [String]?
        var libraries: [String: LibrarySession]?
    }

    public let url: URL

    public init(directory: URL) {
        url = directory.appendingPathComponent("state.json")
    }

    /// The library opened last (absolute paths), if any.
    public func lastLibrary() -> [String]? {
        read().lastLibrary
    }

    /// The saved session of a library (named by its absolute paths).
    public func session(for paths: [String]) -> LibrarySession {
        read().libraries?[SessionStore.key(paths)] ?? LibrarySession()
    }

    /// Saves a library's session and marks it as the last library.
    public func save(_ session: LibrarySession, for paths: [String]) throws {
        var contents = read()
        contents.lastLibrary = paths
        var libraries = contents.libraries ?? [:]
        libraries[SessionStore.key(paths)] = session
        contents.libraries = libraries
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicFile.write(try encoder.encode(contents), to: url)
    }

    private func read() -> Contents {
        guard let data = FileManager.default.contents(atPath: url.path),
              let contents = try? JSONDecoder().decode(Contents.self, from: data) else { return Contents() }
        return contents
    }

    private static func key(_ paths: [String]) -> String {
        paths.joined(separator: "\n")
    }
}
