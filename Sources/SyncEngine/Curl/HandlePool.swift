import CCurl
import Foundation

/// A few idle easy handles, so that sequential requests reuse their connections.
///
/// Each handle is kept with the credentials of its last request and only handed out again for
/// the same credentials: libcurl would otherwise serve a request through an SSH connection
/// logged in with another key (it compares only the user name). A handle is used by one thread
/// at a time: it is taken out under the lock and given back when its request is done, which is
/// why the pool may be shared (`@unchecked`).
final class HandlePool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [(credentials: TransferCredentials, handle: EasyHandle)] = []
    private let capacity = 4

    /// An idle handle last used with `credentials`, or nil when there is none.
    func take(for credentials: TransferCredentials) -> EasyHandle? {
        lock.withLock {
            guard let index = idle.lastIndex(where: { $0.credentials == credentials }) else { return nil }
            return idle.remove(at: index).handle
        }
    }

    /// Keeps `handle` for later requests with `credentials`; the oldest idle handle is freed
    /// when the pool is full.
    func give(back handle: EasyHandle, usedWith credentials: TransferCredentials) {
        let dropped: EasyHandle? = lock.withLock {
            idle.append((credentials, handle))
            return idle.count > capacity ? idle.removeFirst().handle : nil
        }
        // Freed outside the lock: closing connections may take a moment.
        _ = dropped
    }
}
