import Foundation

/// One `name = value` pair of an entry: a plain 20-byte value (its names live in the file's
/// `FieldNameStore`), so that a large library stays small and copying fields costs nothing.
public struct Field: Sendable {
    /// How `first` and `second` are to be read.
    enum Storage: UInt8, Sendable {
        /// The value is bytes `first ..< first + second` of the entry's source.
        case span
        /// The value is `entry.texts[first]`.
        case text
        /// The value is `entry.texts[first]`, inherited from `entry.parents[second]`.
        case inherited
    }

    /// The name's number in the entry's `source.fieldNames`.
    let nameID: UInt32
    /// What the name means to bibread, worked out once per distinct name.
    public let kind: FieldKind
    let storage: Storage
    let first: UInt32
    let second: UInt32
    /// Byte offset of the field name in the source file that wrote it.
    let nameOffset: UInt32

    /// True when the value is a path, URL or identifier (never typeset, only unescaped).
    public var isVerbatim: Bool { kind.isVerbatim }

    /// True when the field came from a `crossref` parent.
    public var isInherited: Bool { storage == .inherited }

    /// The name's number among the field names of the entry's source file (the same for
    /// every field so named in that file).
    public var nameNumber: Int { Int(nameID) }
}
