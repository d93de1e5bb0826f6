/// A cite key as the library spells it (`Knuth1984`). Keys are matched case-insensitively, as
/// BibTeX does: two spellings of one key are equal and hash alike.
public struct CiteKey: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The key as spelled where it came from.
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    public init(stringLiteral text: String) {
        self.text = text
    }

    public var description: String { text }

    /// The key as the library's index compares it (folded to lower case).
    public var folded: String { text.foldedKey }

    public static func == (lhs: CiteKey, rhs: CiteKey) -> Bool {
        lhs.folded == rhs.folded
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(folded)
    }
}
