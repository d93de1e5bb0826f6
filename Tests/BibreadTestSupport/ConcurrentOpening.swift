import Foundation

/// Opens a store that does not exist yet from several threads at once (each its own SQLite
/// connection, as two bibread processes starting together would be), `rounds` times over a
/// new folder each; returns every error an opening threw, described.
///
/// Each opening creates the file and runs its migrations: when two of them read "not migrated
/// yet" before either commits, the second fails with "table … already exists".
public enum ConcurrentOpening {
    public static func failures(rounds: Int = 25, openers: Int = 6, open: @escaping @Sendable (URL) throws -> Void) throws -> [String] {
        let found = FailureList()
        for _ in 0..<rounds {
            let folder = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            DispatchQueue.concurrentPerform(iterations: openers) { _ in
                do { try open(folder) } catch { found.append("\(error)") }
            }
        }
        return found.all
    }
}

private final class FailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []

    func append(_ failure: String) { lock.withLock { list.append(failure) } }
    var all: [String] { lock.withLock { list } }
}
