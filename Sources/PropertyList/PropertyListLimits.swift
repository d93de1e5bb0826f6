/// Caps that keep reading hostile input cheap; every reader checks them.
public struct PropertyListLimits: Sendable, Equatable {
    /// The deepest nesting of arrays and dictionaries accepted (a value at the top is at depth 1).
    public var maxDepth: Int
    /// The most values a reader visits; a value reached through several references counts each
    /// time, so that a binary plist's shared references cannot multiply the work.
    public var maxValues: Int
    /// The largest input accepted, in bytes.
    public var maxBytes: Int

    /// Limits of `maxDepth` levels, `maxValues` value visits and `maxBytes` bytes.
    public init(maxDepth: Int = 512, maxValues: Int = 2_000_000, maxBytes: Int = 16 << 20) {
        self.maxDepth = maxDepth
        self.maxValues = maxValues
        self.maxBytes = maxBytes
    }

    /// Throws `.tooLarge` when `byteCount` passes `maxBytes`.
    func checkSize(_ byteCount: Int) throws(PropertyListError) {
        guard byteCount <= maxBytes else { throw .tooLarge(byteCount: byteCount, limit: maxBytes) }
    }
}
