import Foundation
import PropertyList

/// A parsed `author` or `editor` field.
public struct NameList: Sendable, Hashable {
    /// The people named, in order (`others` is not among them).
    public let names: [PersonName]
    /// True when the list ends with `and others`.
    public let hasOthers: Bool

    /// Splits a raw (LaTeX) name list.
    public init(raw: String) {
        var raw = raw
        self = raw.withUTF8 { NameList(rawBytes: $0) }
    }

    /// Splits a raw (LaTeX) name list given as UTF-8 bytes.
    public init(rawBytes: UnsafeBufferPointer<UInt8>) {
        let (spans, hasOthers) = NameParser(bytes: rawBytes).parseList()
        names = spans.map { PersonName(decoding: $0, in: rawBytes) }
        self.hasOthers = hasOthers
    }

    /// True when the list names nobody, not even `others`.
    public var isEmpty: Bool { names.isEmpty && !hasOthers }

    /// The short form for lists: `Knuth`, `Knuth & Lamport`, `Knuth, Lamport & Plass`,
    /// `Knuth et al.` (from four names on, or when the list says `and others`).
    public var display: String {
        guard let first = names.first?.shortName else { return hasOthers ? "et al." : "" }
        if hasOthers || names.count >= 4 { return first + " et al." }
        switch names.count {
        case 1: return first
        case 2: return first + " & " + names[1].shortName
        default: return first + ", " + names[1].shortName + " & " + names[2].shortName
        }
    }
}
