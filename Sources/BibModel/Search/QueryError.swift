/// Why a query cannot be read, and where (a 1-based column, counted in characters).
public struct QueryError: Error, Equatable, Sendable, CustomStringConvertible {
    public let column: Int
    public let message: String

    public init(column: Int, message: String) {
        self.column = column
        self.message = message
    }

    public var description: String { "column \(column): \(message)" }

    /// The message of a quote that is never closed (a phrase still being typed).
    public static let unclosedQuote = "this quote is never closed"
}
