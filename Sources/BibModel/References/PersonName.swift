import Foundation
import PropertyList

/// One person of an `author` or `editor` list, split by BibTeX's rules.
///
/// `First von Last`, `von Last, First` and `von Last, Jr, First` are understood; braces protect
/// (`{Barnes and Noble}` is one last name); the von part is the run of words that start in lower
/// case. All parts are decoded to Unicode.
public struct PersonName: Sendable, Hashable {
    public let first: String
    public let von: String
    public let last: String
    public let jr: String

    public init(first: String = "", von: String = "", last: String, jr: String = "") {
        self.first = first
        self.von = von
        self.last = last
        self.jr = jr
    }

    /// Decodes the parts of a name found at `spans` in `bytes`.
    init(decoding spans: NameSpans, in bytes: UnsafeBufferPointer<UInt8>) {
        func decode(_ range: Range<Int>) -> String { LaTeX.decode(UnsafeBufferPointer(rebasing: bytes[range])) }
        var first = ""
        if spans.firstIsCommaList {
            var wrotePiece = false
            spans.forEachFirstPiece(in: bytes) { piece in
                if wrotePiece { first += " " }
                first += decode(piece)
                wrotePiece = true
            }
        } else {
            first = decode(spans.first)
        }
        self.init(first: first, von: decode(spans.von), last: decode(spans.last), jr: decode(spans.jr))
    }

    /// The name as cited in lists: the von part and the last name (`van der Aalst`).
    public var shortName: String {
        if von.isEmpty { return last }
        return last.isEmpty ? von : von + " " + last
    }

    /// The whole name in reading order: `Donald E. Knuth`, `Martin Luther King, Jr.`.
    public var fullName: String {
        if first.isEmpty && von.isEmpty && jr.isEmpty { return last }
        var name = ""
        name.reserveCapacity(first.utf8.count + von.utf8.count + last.utf8.count + jr.utf8.count + 4)
        forEachPieceOfFullName { name += $0 }
        return name
    }

    /// Calls `body` with the pieces of `fullName` in order, parts and the separators between them.
    private func forEachPieceOfFullName(_ body: (String) -> Void) {
        var wroteAny = false
        // Not a loop over `[first, von, last]`: that array would cost an allocation per name.
        func put(_ part: String) {
            guard !part.isEmpty else { return }
            if wroteAny { body(" ") }
            body(part)
            wroteAny = true
        }
        put(first)
        put(von)
        put(last)
        if !jr.isEmpty {
            body(", ")
            body(jr)
        }
    }
}
