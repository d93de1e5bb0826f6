import Foundation
import PropertyList

/// Where the parts of one name lie in the bytes of its list: BibTeX's split, nothing decoded.
///
/// Each part is a range of the list's bytes, empty when the name has no such part. In the rare
/// `von Last, Jr, First, More` form, `first` runs from after the second comma to the end and
/// `firstIsCommaList` is set: each comma-separated piece of it is a first name, and the pieces
/// are joined with spaces.
struct NameSpans {
    var first: Range<Int> = 0..<0
    var von: Range<Int> = 0..<0
    var last: Range<Int> = 0..<0
    var jr: Range<Int> = 0..<0
    var firstIsCommaList = false

    /// Calls `body` with each comma-separated piece of `first` (commas inside braces do not
    /// separate), trimmed.
    func forEachFirstPiece(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>) -> Void) {
        let parser = NameParser(bytes: bytes)
        var depth = 0
        var start = first.lowerBound
        for index in first {
            switch bytes[index] {
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "}"): depth = max(0, depth - 1)
            case UInt8(ascii: ",") where depth == 0:
                body(parser.trim(start..<index))
                start = index + 1
            default: break
            }
        }
        body(parser.trim(start..<first.upperBound))
    }
}
