import Foundation

/// The identity of one machine that writes reading state: a random id made once per machine.
///
/// Its storage comes later; here it is a value. A valid id is 1 to 64 characters, each an ASCII
/// lowercase letter, a digit or `-`, so it is safe in a file name and on a terminal.
public struct MachineID: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// The id's text.
    public let rawValue: String

    /// The most characters an id may have.
    public static let maximumLength = 64

    /// An id from its text, or nil when the text is empty, too long or holds a character other
    /// than a lowercase ASCII letter, a digit or `-`.
    public init?(rawValue: String) {
        guard Self.problem(with: rawValue) == nil else { return nil }
        self.rawValue = rawValue
    }

    /// A new random id of 32 hexadecimal digits (128 bits).
    public static func random() -> MachineID {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A new random id of 32 hexadecimal digits drawn from `generator`.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> MachineID {
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        let text = String(format: "%016llx%016llx", high, low)
        return MachineID(validated: text)
    }

    private init(validated: String) { rawValue = validated }

    /// Why `text` is not a valid id, or nil when it is.
    static func problem(with text: String) -> String? {
        if text.isEmpty { return "the machine id is empty" }
        if text.utf8.count > maximumLength { return "the machine id is longer than \(maximumLength) characters" }
        let allowed = text.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
        }
        return allowed ? nil : "the machine id holds a character other than a-z, 0-9 or -"
    }

    public static func < (lhs: MachineID, rhs: MachineID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        if let problem = Self.problem(with: text) {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: problem))
        }
        rawValue = text
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
