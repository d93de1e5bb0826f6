import Foundation

extension RemoteLocations {
    /// The journal of this remote's edits made here and not pushed yet, and of the conflicts
    /// merges left (beside the library, never in the purgeable cache).
    public var journal: URL { library.appendingPathComponent(".bibread-journal.sqlite") }

    /// The journal, when one was ever written (nil: no edit was made here; none is created).
    public func existingJournal() throws -> EditJournal? {
        guard FileManager.default.fileExists(atPath: journal.path) else { return nil }
        return try EditJournal(url: journal)
    }
}
