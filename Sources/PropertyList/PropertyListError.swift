/// The two ways a property list is written down.
public enum PropertyListFormat: String, Sendable, CaseIterable {
    /// An XML property list (Apple's DTD).
    case xml
    /// A binary property list (`bplist00`).
    case binary

    /// The format's name in messages: "XML property list" or "binary property list".
    public var displayName: String {
        switch self {
        case .xml: return "XML property list"
        case .binary: return "binary property list"
        }
    }
}

/// Where in its input a syntax error is.
public enum PropertyListLocation: Sendable, Equatable, CustomStringConvertible {
    /// A byte offset from the start (binary property lists).
    case byte(Int)
    /// A 1-based line and column, the column counting characters (XML property lists).
    case line(Int, column: Int)

    /// `byte N` or `line:column`.
    public var description: String {
        switch self {
        case .byte(let offset): return "byte \(offset)"
        case .line(let line, let column): return "\(line):\(column)"
        }
    }
}

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
