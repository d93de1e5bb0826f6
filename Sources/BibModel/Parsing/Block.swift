import Foundation

/// A `@preamble` or `@comment` block.
public struct Block: Sendable {
    /// The text inside the block's delimiters (for `@preamble`, the expanded value).
    public let text: String
    /// Byte offset of the block's `@` in its source file.
    let offset: Int
}
