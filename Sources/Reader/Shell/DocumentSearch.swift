import Foundation

/// The search of a document's pages for the reading view's `/`, on several threads: the pages
/// are tried in the order the reader meets them (after the page shown, going round the end),
/// each thread taking the next page not yet taken, so that the first page that matches is
/// known as soon as every page before it is done, and no page after it is begun.
enum DocumentSearch {
    /// The page tried at `step` (1…`pageCount`) of a search from `start`: the pages after it
    /// (before it, going back), round the end, `start` itself last.
    static func page(atStep step: Int, from start: Int, forward: Bool, pageCount: Int) -> Int {
        forward ? (start - 1 + step) % pageCount + 1 : (start - 1 - step + pageCount * 2) % pageCount + 1
    }

    /// The first of the steps 1…`steps` for which `matches(step, worker)` is true, tried on
    /// `workers` threads (worker 0…`workers - 1`: each keeps to its own resources, such as its
    /// own poppler document); nil when none is. With one worker the steps are tried in order on
    /// the calling thread.
    static func firstMatch(steps: Int, workers: Int, matches: (_ step: Int, _ worker: Int) -> Bool) -> Int? {
        guard steps > 0 else { return nil }
        if workers <= 1 { return (1...steps).first { matches($0, 0) } }
        let progress = Progress()
        withoutActuallyEscaping(matches) { matches in
            let shared = UnsafeSendable(matches)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                while let step = progress.claim(upTo: steps) {
                    if shared.value(step, worker) { progress.found(step) }
                }
            }
        }
        return progress.best
    }

    /// Which step is next, and the first that matched so far. (An `NSLock`, which
    /// ThreadSanitizer follows, rather than `Mutex`, whose futex it does not.)
    private final class Progress: @unchecked Sendable {
        // @unchecked Sendable: `next` and `first` are only touched with `lock` held.
        private let lock = NSLock()
        private var next = 1
        private var first: Int?

        /// The next step to try; nil once every step is taken or a match was found before it.
        func claim(upTo steps: Int) -> Int? {
            lock.withLock {
                guard next <= steps, first.map({ next < $0 }) ?? true else { return nil }
                defer { next += 1 }
                return next
            }
        }

        func found(_ step: Int) {
            lock.withLock { first = min(first ?? step, step) }
        }

        /// The first step that matched.
        var best: Int? { lock.withLock { first } }
    }

    /// A closure handed to the workers of `concurrentPerform`, which end before it returns.
    private struct UnsafeSendable<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}
