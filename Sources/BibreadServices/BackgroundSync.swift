import DiskIO
import Foundation

/// A sync that goes on without a terminal after the reader quit (`bibread sync NAME` started in
/// a new session): its log, `$XDG_STATE_HOME/bibread/sync-NAME.log`, and how it ended,
/// `sync-NAME.outcome`, which the next start of the reader reports once and removes.
public struct BackgroundSync: Sendable {
    /// The remote's name (a plain folder name).
    public let remote: String
    /// bibread's state folder (`$XDG_STATE_HOME/bibread`).
    public let folder: URL

    /// The background sync of `remote`, its files in `folder`.
    public init(remote: String, folder: URL = Directories().state) {
        self.remote = remote
        self.folder = folder
    }

    /// Where its standard output and error go.
    public var logFile: URL { folder.appendingPathComponent("sync-\(remote).log") }

    /// Where it records how it ended.
    public var outcomeFile: URL { folder.appendingPathComponent("sync-\(remote).outcome") }

    /// How a background sync ended, as kept in its outcome file.
    public struct Outcome: Codable, Sendable, Equatable {
        /// Whether it did its work.
        public var succeeded: Bool
        /// What it did ("3 downloaded, 2 already here"), or why it failed.
        public var text: String

        public init(succeeded: Bool, text: String) {
            self.succeeded = succeeded
            self.text = text
        }
    }

    /// Records how the sync ended (atomically; readable by this user only).
    public func record(_ outcome: Outcome) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try AtomicFile.write(try JSONEncoder().encode(outcome), to: outcomeFile, mode: 0o600)
    }

    /// Removes an outcome left by an earlier background sync (a new one starts).
    public func forgetOutcome() {
        try? FileManager.default.removeItem(at: outcomeFile)
    }

    /// What the status line says of `outcome`.
    public func message(for outcome: Outcome) -> String {
        outcome.succeeded
            ? "The background sync of '\(remote)' finished: \(outcome.text)"
            : "The background sync of '\(remote)' failed: \(outcome.text); see \(logFile.path)"
    }

    /// The outcomes background syncs recorded in `folder` since the last call, as messages (with
    /// whether each is a failure), each file removed once read.
    public static func takeOutcomes(in folder: URL = Directories().state) -> [(text: String, failed: Bool)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().compactMap { name -> (text: String, failed: Bool)? in
            guard name.hasPrefix("sync-"), name.hasSuffix(".outcome") else { return nil }
            let sync = BackgroundSync(remote: String(name.dropFirst("sync-".count).dropLast(".outcome".count)), folder: folder)
            guard let data = FileManager.default.contents(atPath: sync.outcomeFile.path) else { return nil }
            sync.forgetOutcome()
            guard let outcome = try? JSONDecoder().decode(Outcome.self, from: data) else { return nil }
            return (sync.message(for: outcome), !outcome.succeeded)
        }
    }
}
