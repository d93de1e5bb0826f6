import BibModel

/// Writes JSON straight into a byte buffer: fast, streaming, with stable key order. The owner
/// calls `deallocate()` when done with it.
struct JSONWriter {
    private var buffer: ByteBuffer
    private var needsComma: [Bool] = [false]

    init(capacity: Int = 4096) {
        buffer = ByteBuffer(capacity: capacity)
    }

    /// Frees the buffer; the writer must not be used afterwards.
    func deallocate() {
        buffer.deallocate()
    }

    /// Everything written so far.
    var bytes: [UInt8] { buffer.array }

    mutating func beginObject() {
        separate()
        buffer.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }

    mutating func endObject() {
        needsComma.removeLast()
        buffer.append(UInt8(ascii: "}"))
    }

    mutating func beginArray() {
        separate()
        buffer.append(UInt8(ascii: "["))
        needsComma.append(false)
    }

    mutating func endArray() {
        needsComma.removeLast()
        buffer.append(UInt8(ascii: "]"))
    }

    /// Writes `"key":`; the next value written belongs to it.
    mutating func key(_ name: String) {
        separate()
        writeString(name)
        buffer.append(UInt8(ascii: ":"))
        needsComma[needsComma.count - 1] = false
    }

    /// Writes a key already encoded as `"name":` (see `encodedKey(_:)`).
    mutating func encodedKey(_ bytes: [UInt8]) {
        separate()
        bytes.withUnsafeBufferPointer { buffer.append($0) }
        needsComma[needsComma.count - 1] = false
    }

    /// `"name":` as JSON bytes, for `encodedKey(_:)`.
    static func encodedKey(_ name: String) -> [UInt8] {
        var writer = JSONWriter(capacity: name.utf8.count + 8)
        defer { writer.deallocate() }
        writer.key(name)
        return writer.bytes
    }

    /// Writes `"name":` for a key known to need no escaping (a literal of this program).
    mutating func literalKey(_ name: StaticString) {
        separate()
        buffer.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { buffer.append($0) }
        buffer.append(UInt8(ascii: "\""))
        buffer.append(UInt8(ascii: ":"))
        needsComma[needsComma.count - 1] = false
    }

    mutating func string(_ value: String) {
        separate()
        writeString(value)
    }

    mutating func optionalString(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    mutating func bool(_ value: Bool) {
        separate()
        buffer.append(value ? "true" : "false")
    }

    mutating func integer(_ value: Int) {
        separate()
        buffer.append(String(value))
    }

    mutating func null() {
        separate()
        buffer.append("null")
    }

    mutating func newline() {
        buffer.append(0x0A)
    }

    /// Starts the next item of a top-level array on its own line: `,\n`.
    mutating func nextTopLevelItem() {
        buffer.append(UInt8(ascii: ","))
        buffer.append(0x0A)
        needsComma[0] = false
    }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] {
            buffer.append(UInt8(ascii: ","))
        }
        needsComma[needsComma.count - 1] = true
    }

    /// A backslash escape: `\\` followed by `byte`.
    @inline(__always) private mutating func appendEscape(_ byte: UInt8) {
        buffer.append(UInt8(ascii: "\\"))
        buffer.append(byte)
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// True when one of the eight bytes may be a control byte, `"` or `\\` (exact for ASCII
    /// words; UTF-8 lead and continuation bytes never match, they only cost a byte-wise look).
    @inline(__always) private static func mayNeedEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let control = (word &- ones &* 0x20) & ~word & highs != 0  // some byte < 0x20
        return control || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
    }

    /// Writes UTF-8 bytes as a JSON string.
    mutating func string(_ utf8: UnsafeBufferPointer<UInt8>) {
        separate()
        writeString(utf8)
    }

    private mutating func writeString(_ value: String) {
        var value = value
        value.withUTF8 { writeString($0) }
    }

    private mutating func writeString(_ utf8: UnsafeBufferPointer<UInt8>) {
        buffer.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        let count = utf8.count
        while index < count {
            // Eight bytes at a time while none needs escaping (no control byte, quote or backslash).
            if index + 8 <= count, let base = utf8.baseAddress {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if !JSONWriter.mayNeedEscaping(word) {
                    index += 8
                    continue
                }
            }
            let byte = utf8[index]
            index += 1
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if index - 1 > runStart { buffer.append(UnsafeBufferPointer(rebasing: utf8[runStart..<(index - 1)])) }
            runStart = index
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): appendEscape(byte)
            case 0x0A: appendEscape(UInt8(ascii: "n"))
            case 0x0D: appendEscape(UInt8(ascii: "r"))
            case 0x09: appendEscape(UInt8(ascii: "t"))
            default:
                appendEscape(UInt8(ascii: "u"))
                buffer.append("00")
                buffer.append(JSONWriter.hex[Int(byte >> 4)])
                buffer.append(JSONWriter.hex[Int(byte & 0xF)])
            }
        }
        if runStart < utf8.count { buffer.append(UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        buffer.append(UInt8(ascii: "\""))
    }
}
