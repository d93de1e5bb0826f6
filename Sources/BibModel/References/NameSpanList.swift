import Foundation
import PropertyList

/// An `author` or `editor` list as spans of its raw bytes, split but not decoded, which writes
/// its names decoded straight into a byte buffer: the same text as ``NameList``, with no
/// String made for any part of any name.
///
/// It holds the bytes it was given without owning them: use it only while they live.
public struct NameSpanList {
    /// The raw (LaTeX) bytes of the list.
    private let bytes: UnsafeBufferPointer<UInt8>
    private let spans: [NameSpans]
    /// True when the list ends with `and others`.
    public let hasOthers: Bool
    /// True when the whole list decodes to itself, and so does every part of it (parts start
    /// and end with neither space nor separator, and hold nothing that is not in the list).
    private let isPlain: Bool

    /// Splits the raw (LaTeX) name list in `bytes`, which must outlive the value.
    public init(rawBytes bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        (spans, hasOthers) = NameParser(bytes: bytes).parseList()
        isPlain = LaTeX.isPlain(bytes) && UTF8Validation.firstInvalidOffset(in: bytes) == nil
    }

    /// The number of people named (`others` is not among them).
    public var count: Int { spans.count }

    /// True when the list names nobody, not even `others`.
    public var isEmpty: Bool { spans.isEmpty && !hasOthers }

    /// Appends the UTF-8 of the person's ``PersonName/fullName`` at `index` to `buffer`.
    public func appendFullName(at index: Int, to buffer: inout ByteBuffer) {
        let name = spans[index]
        var wroteAny = false
        appendPart(to: &buffer, after: &wroteAny) { buffer in
            if name.firstIsCommaList {
                var wrotePiece = false
                name.forEachFirstPiece(in: bytes) { piece in
                    if wrotePiece { buffer.append(UInt8(ascii: " ")) }
                    append(piece, to: &buffer)
                    wrotePiece = true
                }
            } else {
                append(name.first, to: &buffer)
            }
        }
        appendPart(to: &buffer, after: &wroteAny) { append(name.von, to: &$0) }
        appendPart(to: &buffer, after: &wroteAny) { append(name.last, to: &$0) }
        let beforeJunior = buffer.count
        buffer.append(UInt8(ascii: ","))
        buffer.append(UInt8(ascii: " "))
        let juniorStart = buffer.count
        append(name.jr, to: &buffer)
        if buffer.count == juniorStart { buffer.truncate(to: beforeJunior) }
    }

    /// Appends the UTF-8 of the list's ``NameList/display`` to `buffer`.
    public func appendDisplay(to buffer: inout ByteBuffer) {
        guard !spans.isEmpty else {
            if hasOthers { buffer.append("et al.") }
            return
        }
        appendShortName(at: 0, to: &buffer)
        if hasOthers || spans.count >= 4 {
            buffer.append(" et al.")
            return
        }
        switch spans.count {
        case 1:
            break
        case 2:
            buffer.append(" & ")
            appendShortName(at: 1, to: &buffer)
        default:
            buffer.append(", ")
            appendShortName(at: 1, to: &buffer)
            buffer.append(" & ")
            appendShortName(at: 2, to: &buffer)
        }
    }

    /// Each person's ``PersonName/shortName``, in order: the same Strings as
    /// `NameList(rawBytes:).names.map(\.shortName)`, decoded straight from the raw bytes
    /// with no other part of any name decoded (`GroupValueFastPathTests` compares the two).
    public func shortNames() -> [String] {
        var buffer = ByteBuffer(capacity: 64)
        defer { buffer.deallocate() }
        return spans.indices.map { index in
            buffer.truncate(to: 0)
            appendShortName(at: index, to: &buffer)
            return buffer.string()
        }
    }

    /// Appends the person's ``PersonName/shortName``: the von part and the last name.
    private func appendShortName(at index: Int, to buffer: inout ByteBuffer) {
        let name = spans[index]
        let start = buffer.count
        append(name.von, to: &buffer)
        if buffer.count == start {
            append(name.last, to: &buffer)
            return
        }
        let beforeLast = buffer.count
        buffer.append(UInt8(ascii: " "))
        append(name.last, to: &buffer)
        if buffer.count == beforeLast + 1 { buffer.truncate(to: beforeLast) }
    }

    /// Appends a part of a whole name written by `write`, with a space before it when a part
    /// came before; a part that decodes to nothing leaves no trace.
    private func appendPart(to buffer: inout ByteBuffer, after wroteAny: inout Bool, _ write: (inout ByteBuffer) -> Void) {
        let mark = buffer.count
        if wroteAny { buffer.append(UInt8(ascii: " ")) }
        let start = buffer.count
        write(&buffer)
        if buffer.count == start {
            buffer.truncate(to: mark)
        } else {
            wroteAny = true
        }
    }

    private func append(_ range: Range<Int>, to buffer: inout ByteBuffer) {
        guard !range.isEmpty else { return }
        let part = UnsafeBufferPointer(rebasing: bytes[range])
        if isPlain {
            buffer.append(part)
        } else {
            LaTeX.appendDecoded(part, to: &buffer)
        }
    }
}
