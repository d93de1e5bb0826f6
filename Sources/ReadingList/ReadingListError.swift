import PropertyList

/// Why a reading list or a bookmarks link could not be read.
public enum ReadingListError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are neither a property list (XML or binary) nor JSON.
    case unrecognizedFormat(String)
    /// The bytes are in a known format but break its syntax. `location` is `line:column` for
    /// XML and JSON and `byte N` for binary property lists, when known.
    case malformed(format: ReadingListFormat, location: String?, message: String)
    /// The syntax is fine but the tree is not a reading list: every error found, in tree order.
    case invalid([ListProblem])
    /// The input is larger, deeper or has more nodes or values than the limits allow.
    case limitExceeded(String)
    /// A `bibread://` link is damaged: bad base64, a wrong declared length, bad compressed data.
    case badLink(String)

    /// One human-readable line (for `.invalid`, a count followed by one line per error).
    public var description: String {
        switch self {
        case .unrecognizedFormat(let reason):
            return "not a reading list: \(reason)"
        case .malformed(let format, let location, let message):
            let place = location.map { " at \($0)" } ?? ""
            return "malformed \(format.displayName)\(place): \(message)"
        case .invalid(let problems):
            let errors = problems.filter { $0.severity == .error }
            let count = errors.isEmpty ? problems.count : errors.count
            let heading = count == 1 ? "1 error in the reading list" : "\(count) errors in the reading list"
            return ([heading + ":"] + problems.map { "  \($0)" }).joined(separator: "\n")
        case .limitExceeded(let reason):
            return reason
        case .badLink(let reason):
            return "bad bookmarks link: \(reason)"
        }
    }
}

extension ReadingListError {
    /// The reading-list error for a property-list reader's error, worded for a list.
    init(_ error: PropertyListError) {
        switch error {
        case .malformed(let format, let location, let message):
            self = .malformed(format: format == .xml ? .xml : .binary, location: location?.description, message: message)
        case .nestingTooDeep(let limit):
            self = .limitExceeded("the list nests values deeper than \(limit) levels")
        case .tooManyValues(let limit):
            self = .limitExceeded("the list has more than \(limit) values")
        case .tooLarge(let byteCount, let limit):
            self = .limitExceeded("the list is \(byteCount) bytes, more than the limit of \(limit)")
        }
    }
}
