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
