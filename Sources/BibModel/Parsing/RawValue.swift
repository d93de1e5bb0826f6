import Foundation

/// A field's value as written in the file, after `@string` expansion and `#` concatenation, with
/// the outer delimiters removed but LaTeX still in it.
enum RawValue: Sendable {
    /// Bytes `start ..< start + count` of the entry's source file: the common case, no copy.
    case span(start: UInt32, count: UInt32)
    /// A value built from several parts or macros, or inherited through `crossref`.
    case text(String)
}
