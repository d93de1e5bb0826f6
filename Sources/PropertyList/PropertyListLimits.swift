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

/// The running count of values a reader has produced, checked against a limit (for readers of
/// other formats that build `PropertyListValue`s, such as JSON).
public struct ValueBudget: Sendable {
    /// The most values allowed.
    public let limit: Int
    /// The values counted so far (saturating at `Int.max`).
    public private(set) var used = 0

    /// A budget of `limit` values.
    public init(limit: Int) {
        self.limit = limit
    }

    /// Counts `count` more values, throwing `.tooManyValues` once the total passes the limit.
    public mutating func spend(_ count: Int = 1) throws(PropertyListError) {
        used = used.addingReportingOverflow(count).overflow ? Int.max : used + count
        if used > limit { throw .tooManyValues(limit: limit) }
    }
}
