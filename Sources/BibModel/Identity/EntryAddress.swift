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
}
