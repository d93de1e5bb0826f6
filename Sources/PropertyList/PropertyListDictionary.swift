/// A property-list dictionary that keeps its keys in the order written (so that writers are
/// deterministic); a key given twice keeps its last value on lookup, as Apple's readers do.
public struct PropertyListDictionary: Sendable, Equatable {
    /// One key and its value.
    public struct Entry: Sendable, Equatable {
        /// The key.
        public var key: String
        /// The value under the key.
        public var value: PropertyListValue

        /// An entry of `value` under `key`.
        public init(key: String, value: PropertyListValue) {
            self.key = key
            self.value = value
        }
    }

    /// Every entry, in order, repeated keys included.
    public private(set) var entries: [Entry]

    /// A dictionary of `entries`, in their order.
    public init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    /// Appends `value` under `key` (a later duplicate wins on lookup).
    public mutating func append(_ key: String, _ value: PropertyListValue) {
        entries.append(Entry(key: key, value: value))
    }

    /// The value of `key`, the last one when the key is given twice. Keys compare by their
    /// Unicode scalars (not by canonical equivalence), as in Apple's property lists.
    public subscript(key: String) -> PropertyListValue? {
        for entry in entries.reversed() where entry.key.unicodeScalars.elementsEqual(key.unicodeScalars) {
            return entry.value
        }
        return nil
    }
}
