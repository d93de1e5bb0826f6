/// The entries a parser has read, in memory it owns, so that they can be moved rather than
/// copied.
///
/// Joining the chunks of a large file appends tens of thousands of entries to those before
/// them. Appending one array to another copies each entry, which retains everything it holds
/// (its key, fields, texts, source) and releases it again when the chunk's array goes: a cache
/// miss on each of those objects, twice, on the one thread that joins. Moving only copies the
/// entries' own bytes.
///
/// A parser uses its buffer on one thread at a time.
final class EntryBuffer: @unchecked Sendable {
    private var storage: UnsafeMutablePointer<Entry>
    private var capacity: Int
    /// The number of entries held.
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
        storage = .allocate(capacity: self.capacity)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// Adds `entry` at the end.
    func append(_ entry: consuming Entry) {
        if count == capacity { grow(to: count + 1) }
        (storage + count).initialize(to: entry)
        count += 1
    }

    /// The entry at `index`, which can be changed in place.
    subscript(index: Int) -> Entry {
        get {
            precondition(index >= 0 && index < count, "entry index out of range")
            return storage[index]
        }
        _modify {
            precondition(index >= 0 && index < count, "entry index out of range")
            yield &storage[index]
        }
    }

    /// Calls `body` with the entries, which it may change in place.
    func withUnsafeMutableBufferPointer<Result>(_ body: (UnsafeMutableBufferPointer<Entry>) throws -> Result) rethrows -> Result {
        try body(UnsafeMutableBufferPointer(start: storage, count: count))
    }

    /// Moves every entry of `other` to the end of this buffer, leaving `other` empty (and
    /// its memory freed).
    func append(movingFrom other: EntryBuffer) {
        guard other !== self, other.count > 0 else { return }
        // Joining chunks is rare and large: room for exactly what it holds, no spare half.
        if count + other.count > capacity { grow(to: count + other.count, exactly: true) }
        (storage + count).moveInitialize(from: other.storage, count: other.count)
        count += other.count
        other.count = 0
        other.release()
    }

    /// Moves every entry into an array, leaving the buffer empty (and its memory freed).
    func takeAll() -> [Entry] {
        let taken = count
        count = 0
        let entries = [Entry](unsafeUninitializedCapacity: taken) { buffer, initialized in
            if let base = buffer.baseAddress { base.moveInitialize(from: storage, count: taken) }
            initialized = taken
        }
        release()
        return entries
    }

    /// Makes room for at least `needed` entries (or just that many), moving those held.
    private func grow(to needed: Int, exactly: Bool = false) {
        capacity = exactly ? needed : max(needed, capacity * 2)
        storage = storage.movedToNewAllocation(count: count, capacity: capacity)
    }

    /// Frees the memory of an empty buffer (keeping room for one entry).
    private func release() {
        guard count == 0, capacity > 1 else { return }
        storage.deallocate()
        capacity = 1
        storage = .allocate(capacity: capacity)
    }
}
