import CPoppler
import Foundation

/// Counts the callers inside a section, with its own lock (see `PDFDocument.mostCallsAtOnce`).
final class ConcurrencyProbe: @unchecked Sendable {
    // @unchecked Sendable: `inside` and `peak` are only touched with `lock` held.
    private let lock = NSLock()
    private var inside = 0
    private var peak = 0

    func enter() {
        lock.withLock {
            inside += 1
            peak = max(peak, inside)
        }
    }

    func leave() {
        lock.withLock { inside -= 1 }
    }

    /// The most callers that were inside at once.
    var most: Int { lock.withLock { peak } }
}
