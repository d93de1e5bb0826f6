import BibModel

/// Writes JSON straight into a byte buffer: fast, streaming, with stable key order. The owner
/// calls `deallocate()` when done with it.
struct JSONWriter {
    private var buffer: ByteBuffer
    /// Bit n is set when the container open at depth n needs a comma before its next item
    /// (depth 0 is the top level); this writer's documents nest far less than 64 deep.
    private var needsComma: UInt64 = 0
    private var depth = 0
    /// Where LaTeX is decoded before it is written (see `decodedLaTeX(_:)`), made on first use.
    private var scratch: ByteBuffer?

    init(capacity: Int = 4096) {
        buffer = ByteBuffer(capacity: capacity)
    }

    /// Frees the buffer; the writer must not be used afterwards.
    func deallocate() {
        buffer.deallocate()
        scratch?.deallocate()
    }

    /// Everything written so far.
    var bytes: [UInt8] { buffer.array }

    /// Hands over the buffer with everything written (the caller frees it); the writer must not
    /// be used afterwards, nor deallocated.
    func finish() -> ByteBuffer {
        scratch?.deallocate()
        return buffer
    }

    mutating func beginObject() {
        separate()
        buffer.append(UInt8(ascii: "{"))
        open()
    }

    mutating func endObject() {
        close()
        buffer.append(UInt8(ascii: "}"))
    }

    mutating func beginArray() {
        separate()
        buffer.append(UInt8(ascii: "["))
        open()
    }

    mutating func endArray() {
        close()
        buffer.append(UInt8(ascii: "]"))
    }

    /// How many bytes have been written: a value written between two positions can be written
    /// again with `repeatValue(_:)`.
    var position: Int { buffer.count }

    /// Writes again a value written earlier, the bytes between two positions.
    mutating func repeatValue(_ written: Range<Int>) {
        separate()
        buffer.appendCopy(of: written)
    }

    /// Writes `"key":`; the next value written belongs to it.
    mutating func key(_ name: String) {
        separate()
        writeString(name)
        buffer.append(UInt8(ascii: ":"))
        clearComma()
    }

    /// Writes a key already encoded as `"name":` (see `encodedKey(_:)`).
    mutating func encodedKey(_ bytes: UnsafeBufferPointer<UInt8>) {
        separate()
        buffer.append(bytes)
        clearComma()
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
        buffer.append(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        buffer.append(UInt8(ascii: "\""))
        buffer.append(UInt8(ascii: ":"))
        clearComma()
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
        // Digits written straight into the buffer, last first, with no String made.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 24 bytes: Int.min has 20
        withUnsafeMutableBytes(of: &digits) { room in
            var magnitude = value.magnitude
            var start = room.count
            repeat {
                start -= 1
                room[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                room[start] = UInt8(ascii: "-")
            }
            buffer.append(UnsafeBufferPointer(rebasing: room.bindMemory(to: UInt8.self)[start...]))
        }
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
        needsComma &= ~1
    }

    private mutating func separate() {
        let bit: UInt64 = 1 << depth
        if needsComma & bit != 0 {
            buffer.append(UInt8(ascii: ","))
        }
        needsComma |= bit
    }

    /// Enters a container: its first item needs no comma.
    private mutating func open() {
        depth += 1
        precondition(depth < 64, "JSONWriter nests at most 63 containers")
        needsComma &= ~(1 << depth)
    }

    private mutating func close() {
        depth -= 1
    }

    /// After a key, the value needs no comma.
    private mutating func clearComma() {
        needsComma &= ~(1 << depth)
    }

    /// A backslash escape: `\\` followed by `byte`.
    @inline(__always) private mutating func appendEscape(_ byte: UInt8) {
        buffer.append(UInt8(ascii: "\\"))
        buffer.append(byte)
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// True when one of the eight bytes is a control byte, DEL, `"`, `\\` or 0xC2 (which starts
    /// a C1 control, U+0080 to U+009F). Exact for any bytes: a borrow can set the high bit of a
    /// byte only above a byte that matched, and bytes of 0x80 and up never match `control`.
    @inline(__always) private static func mayNeedEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let control = (word &- ones &* 0x20) & ~word & highs != 0  // some byte < 0x20
        return control || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
            || hasZeroByte(word ^ (ones &* 0x7F)) || hasZeroByte(word ^ (ones &* 0xC2))
    }

    /// Writes a LaTeX value (UTF-8 bytes) decoded to Unicode, as `LaTeX.decode` decodes it, as a
    /// JSON string, with no String made on the way in the common case.
    mutating func decodedLaTeX(_ latex: UnsafeBufferPointer<UInt8>) {
        separate()
        withScratch { json, scratch in
            LaTeX.withDecoded(latex, scratch: &scratch) { decoded, wasPlain in
                if wasPlain {
                    json.writePlainString(decoded)
                } else {
                    json.writeString(decoded)
                }
            }
        }
    }

    /// Writes a path, URL or identifier (UTF-8 bytes) unescaped as `LaTeX.decodeVerbatim` does
    /// it, as a JSON string, with no String made in the common case.
    mutating func decodedVerbatim(_ raw: UnsafeBufferPointer<UInt8>) {
        separate()
        LaTeX.withDecodedVerbatim(raw) { writeString($0) }
    }

    /// Writes an entry's citation line (`Entry.citation`) as a JSON string, built in scratch
    /// memory with no String made.
    mutating func citation(of entry: Entry) {
        separate()
        withScratch { json, scratch in
            entry.withCitation(scratch: &scratch) { json.writeString($0) }
        }
    }

    /// Calls `body` with this writer and its scratch buffer (made on first use). The buffer is
    /// taken out of the writer meanwhile: Swift's exclusivity rules forbid using the writer
    /// while one of its properties is borrowed.
    private mutating func withScratch(_ body: (inout JSONWriter, inout ByteBuffer) -> Void) {
        var scratch = self.scratch ?? ByteBuffer(capacity: 1024)
        self.scratch = nil
        body(&self, &scratch)
        self.scratch = scratch
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
        appendEscaped(utf8)
        buffer.append(UInt8(ascii: "\""))
    }

    /// Writes UTF-8 bytes known to need no escaping (`LaTeX.isPlain`) as a JSON string.
    private mutating func writePlainString(_ utf8: UnsafeBufferPointer<UInt8>) {
        buffer.append(utf8, enclosedIn: UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ text: String) {
        var text = text
        text.withUTF8 { appendEscaped($0) }
    }

    /// Writes the people of a name list as an array of whole names (`PersonName.fullName`),
    /// then `"others"` when the list ends so; each name is decoded into scratch memory, with no
    /// String made.
    mutating func names(_ list: NameSpanList) {
        beginArray()
        withScratch { json, scratch in
            for index in 0..<list.count {
                scratch.truncate(to: 0)
                list.appendFullName(at: index, to: &scratch)
                json.string(UnsafeBufferPointer(start: scratch.base, count: scratch.count))
            }
        }
        if list.hasOthers { string("others") }
        endArray()
    }

    /// Writes the short form of a name list (`NameList.display`: `Knuth & Lamport`) as a JSON
    /// string, decoded into scratch memory.
    mutating func nameDisplay(_ list: NameSpanList) {
        withScratch { json, scratch in
            scratch.truncate(to: 0)
            list.appendDisplay(to: &scratch)
            json.string(UnsafeBufferPointer(start: scratch.base, count: scratch.count))
        }
    }

    /// Appends UTF-8 bytes with JSON's escapes, without quotes. Every control character is
    /// escaped: C0 (as JSON requires), and DEL and C1 (U+0080 to U+009F) too, so that JSON
    /// printed to a terminal holds nothing it acts on (see `TerminalText`).
    ///
    /// Eight bytes are checked at a time (`mayNeedEscaping` is exact for any bytes); the last few
    /// of a string of eight bytes or more with the word that ends the string (it overlaps bytes
    /// already checked), those of a shorter one byte by byte: no copy is made to check. Bytes are
    /// copied in runs between escapes.
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard let base = utf8.baseAddress else { return }
        let count = utf8.count
        var runStart = 0
        if count >= 8 {
            var index = 0
            while index &+ 8 <= count {
                if JSONWriter.mayNeedEscaping(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                    appendEscapes(base, count: count, in: index..<(index &+ 8), runStart: &runStart)
                }
                index &+= 8
            }
            if index < count,
               JSONWriter.mayNeedEscaping(UnsafeRawPointer(base + (count &- 8)).loadUnaligned(as: UInt64.self)) {
                appendEscapes(base, count: count, in: index..<count, runStart: &runStart)
            }
        } else {
            appendEscapes(base, count: count, in: 0..<count, runStart: &runStart)
        }
        if runStart < count { buffer.append(UnsafeBufferPointer(start: base + runStart, count: count &- runStart)) }
    }

    /// Escapes the bytes of `range` that need it, each after the run of bytes before it (from
    /// `runStart`, which moves past it). A C1 control's second byte may lie past `range` (but
    /// not past `count`): `runStart` then moves past it, and the next range skips it.
    @inline(__always)
    private mutating func appendEscapes(_ base: UnsafePointer<UInt8>, count: Int, in range: Range<Int>, runStart: inout Int) {
        for index in range where index >= runStart {
            var byte = base[index]
            var length = 1
            if byte == 0xC2 {
                // U+0080 to U+009F are C2 80 to C2 9F.
                guard index &+ 1 < count, base[index &+ 1] >= 0x80, base[index &+ 1] <= 0x9F else { continue }
                byte = base[index &+ 1]
                length = 2
            } else if !(byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")) {
                continue
            }
            if index > runStart { buffer.append(UnsafeBufferPointer(start: base + runStart, count: index &- runStart)) }
            runStart = index &+ length
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
    }
}
