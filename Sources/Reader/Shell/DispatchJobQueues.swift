import Foundation

/// The app's background queues: one dispatch queue for each `WorkQueue`.
final class DispatchJobQueues: JobQueues {
    private let interactive = DispatchQueue(label: "bibread.interactive", qos: .userInitiated)
    private let bulk = DispatchQueue(label: "bibread.bulk", qos: .utility)
    private let index = DispatchQueue(label: "bibread.index", qos: .userInitiated)
    private let documents = DispatchQueue(label: "bibread.documents", qos: .userInitiated)
    private let openings = DispatchQueue(label: "bibread.openings", qos: .userInitiated, attributes: .concurrent)
    private let prefetch = DispatchQueue(label: "bibread.prefetch", qos: .utility)
    private let fetches = DispatchQueue(label: "bibread.fetches", qos: .userInitiated)
    private let indexing = DispatchQueue(label: "bibread.fulltext", qos: .background)
    private let readingWrites = DispatchQueue(label: "bibread.reading-writes", qos: .userInitiated)
    private let bookmarkWrites = DispatchQueue(label: "bibread.bookmark-writes", qos: .userInitiated)
    private let libraryWrites = DispatchQueue(label: "bibread.library-writes", qos: .userInitiated)

    private func queue(_ queue: WorkQueue) -> DispatchQueue {
        switch queue {
        case .interactive: interactive
        case .bulk: bulk
        case .index: index
        case .documents: documents
        case .openings: openings
        case .prefetch: prefetch
        case .fetches: fetches
        case .indexing: indexing
        case .readingWrites: readingWrites
        case .bookmarkWrites: bookmarkWrites
        case .libraryWrites: libraryWrites
        }
    }

    func async(on queue: WorkQueue, _ work: @escaping @Sendable () -> Void) {
        self.queue(queue).async(execute: work)
    }

    func finish(_ queue: WorkQueue) {
        self.queue(queue).sync {}
    }
}
