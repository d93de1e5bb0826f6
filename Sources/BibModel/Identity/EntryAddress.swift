/// The address of one reference in a library: its cite key, with `#N` for the N-th reference of a
/// key that several share (`knuth1984#2`). Bookmarks, sessions and links store a `CiteKey`; the
/// screen and `bibread show` address one reference with this.
public struct EntryAddress: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The address as written.
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    public init(stringLiteral text: String) {
        self.text = text
    }

    public var description: String { text }

    /// The cite key the address names a reference of: the text before `#N` (a library knows
    /// better when a key itself holds `#`: `Library.entry(at:)`).
    public var citeKey: CiteKey {
        if let hash = text.lastIndex(of: "#"), let occurrence = Int(text[text.index(after: hash)...]), occurrence >= 1 {
            return CiteKey(String(text[..<hash]))
        }
        return CiteKey(text)
    }
}
