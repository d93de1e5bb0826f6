

/// Why a property list could not be read.
public enum PropertyListError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes break the format's syntax at `location` (nil when no place fits, such as data
    /// too short to hold a trailer).
    case malformed(format: PropertyListFormat, location: PropertyListLocation?, message: String)
    /// Values nest deeper than `limit` levels.
    case nestingTooDeep(limit: Int)
    /// Reading visits more than `limit` values (a shared value counts at every reference).
    case tooManyValues(limit: Int)
    /// The input is `byteCount` bytes, more than `limit`.
    case tooLarge(byteCount: Int, limit: Int)

    /// One human-readable line.
    public var description: String {
        switch self {
        case .malformed(let format, let location, let message):
            let place = location.map { " at \($0)" } ?? ""
            return "malformed \(format.displayName)\(place): \(message)"
        case .nestingTooDeep(let limit):
            return "the property list nests values deeper than \(limit) levels"
        case .tooManyValues(let limit):
            return "the property list has more than \(limit) values"
        case .tooLarge(let byteCount, let limit):
            return "the property list is \(byteCount) bytes, more than the limit of \(limit)"
        }
    }
}
