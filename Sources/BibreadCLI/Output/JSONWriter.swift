/// Writes JSON straight into a byte buffer: fast, streaming, with stable key order.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = [false]

    init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
    }

    mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }

    mutating func endObject() {
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
    }

    mutating func endArray() {
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes `"key":`; the next value written belongs to it.
    mutating func key(_ name: String) {
        separate()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
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
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func integer(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    mutating func newline() {
        bytes.append(0x0A)
    }

    /// Starts the next item of a top-level array on its own line: `,\n`.
    mutating func nextTopLevelItem() {
        bytes.append(contentsOf: [UInt8(ascii: ","), 0x0A])
        needsComma[0] = false
    }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] {
            bytes.append(UInt8(ascii: ","))
        }
        needsComma[needsComma.count - 1] = true
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

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
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if index > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            runStart = index + 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            default:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          JSONWriter.hex[Int(byte >> 4)], JSONWriter.hex[Int(byte & 0xF)]])
            }
        }
        if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        bytes.append(UInt8(ascii: "\""))
    }
}
