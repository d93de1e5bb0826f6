import Foundation

/// Why a text cannot be copied with OSC 52.
public enum OSC52Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text's base64 is longer than terminals take.
    case tooLong(encodedLength: Int, limit: Int)

    /// The problem as a sentence for messages.
    public var description: String {
        switch self {
        case .tooLong(let length, let limit):
            return "the text is too long for the terminal's clipboard (\(length) bytes of base64, the limit is \(limit))"
        }
    }
}
