import Foundation

/// Extracted page text, kept for the pages used most recently: a thread-safe cache that holds at
/// most `capacity` pages and forgets the least recently used one first.
///
/// Eviction scans the cache (O(capacity)), which is nothing next to extracting a page for the
/// few hundred pages a reader keeps.
public final class PageTextCache: @unchecked Sendable {
    // @unchecked Sendable: `entries` and `clock` are only touched with `lock` held.

    /// What a cached text is: a document's page in one mode.
    public struct Key: Hashable, Sendable {
        /// The document: its `PDFFingerprint` (to follow the file when it moves) or its path.
        public var document: String
        /// The 1-based page number.
        public var page: Int
        /// Reading order or physical layout.
        public var mode: PageTextMode

        /// The key of `page` of `document` in `mode`.
        public init(document: String, page: Int, mode: PageTextMode) {
            self.document = document
            self.page = page
            self.mode = mode
        }
    }

    /// The most pages the cache holds.
    public let capacity: Int
    private let lock = NSLock()
    private var entries: [Key: (text: String, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0

    /// A cache of at most `capacity` pages (at least one).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// How many pages the cache holds.
    public var count: Int { lock.withLock { entries.count } }

    /// The cached keys, most recently used first.
    public var keys: [Key] {
        lock.withLock { entries.sorted { $0.value.lastUse > $1.value.lastUse }.map(\.key) }
    }

    /// The cached text for `key`, which becomes the most recently used; nil when not cached.
    public func text(for key: Key) -> String? {
        lock.withLock {
            guard let entry = entries[key] else { return nil }
            clock += 1
            entries[key] = (entry.text, clock)
            return entry.text
        }
    }

    /// Caches `text` for `key` as the most recently used, forgetting the least recently used
    /// page when the cache is full.
    public func insert(_ text: String, for key: Key) {
        lock.withLock {
            if entries[key] == nil, entries.count >= capacity,
               let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                entries[oldest] = nil
            }
            clock += 1
            entries[key] = (text, clock)
        }
    }

    /// The cached text for `key`, or else the text `extract` gives, which is cached. `extract`
    /// runs without the lock held, so two threads missing the same key may both extract it.
    public func text(for key: Key, orExtract extract: () throws -> String) rethrows -> String {
        if let text = text(for: key) { return text }
        let text = try extract()
        insert(text, for: key)
        return text
    }

    /// Forgets every page of `document`.
    public func removeAll(ofDocument document: String) {
        lock.withLock { entries = entries.filter { $0.key.document != document } }
    }

    /// Forgets every page.
    public func removeAll() {
        lock.withLock { entries.removeAll() }
    }
}
