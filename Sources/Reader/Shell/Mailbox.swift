import Foundation
import ReaderCore
import Synchronization

/// Events posted from background work, waiting for the event loop.
final class Mailbox: Sendable {
    private let events = Mutex<[Event]>([])
    private let wakeDescriptor: Int32

    /// A mailbox that writes a byte to `wakeDescriptor` (a pipe the loop polls) for each event;
    /// -1: none (the loop is stepped, not woken).
    init(wakeDescriptor: Int32) {
        self.wakeDescriptor = wakeDescriptor
    }

    func post(_ event: Event) {
        events.withLock { $0.append(event) }
        guard wakeDescriptor >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(wakeDescriptor, &byte, 1)
    }

    func take() -> [Event] {
        events.withLock { pending in
            defer { pending = [] }
            return pending
        }
    }

    /// Whether events are waiting.
    var isEmpty: Bool {
        events.withLock { $0.isEmpty }
    }
}
