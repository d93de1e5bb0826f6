import Foundation

/// One reference: `@type{key, field = value, ...}`.
public struct Entry: Sendable {
    /// The entry type in lower case (`article`, `inproceedings`, ...).
    public let type: String
    /// The cite key as written.
    public let key: String
    /// Fields in file order; inherited ones follow the entry's own.
    public internal(set) var fields: [Field]
    /// Values that are not a plain span of the source (macros, concatenations, inherited).
    var texts: [String]
    /// Keys of the `crossref` parents inherited fields came from.
    var parents: [String] = []
    /// The file the entry was read from.
    public let source: SourceFile
    /// Byte offset of the entry's `@` in its source file.
    let offset: Int
    /// 1 for the first entry with this key (ignoring case), 2 for the second, ...
    public internal(set) var occurrence: Int = 1
    /// Bit n is set when a field is the well-known field of raw value n (bit 0: any other):
    /// looking up a field the entry does not have costs one test, not a pass over its fields.
    private var knownFields: UInt32

    init(type: String, key: String, fields: [Field], texts: [String], source: SourceFile, offset: Int) {
        self.type = type
        self.key = key
        self.fields = fields
        self.texts = texts
        self.source = source
        self.offset = offset
        knownFields = fields.reduce(0) { $0 | Self.bit(of: $1.kind.known) }
    }

    private static func bit(of known: WellKnownField) -> UInt32 { 1 << UInt32(known.rawValue) }

    /// True when the entry has a field that is `known`.
    func has(_ known: WellKnownField) -> Bool { knownFields & Self.bit(of: known) != 0 }

    /// Where the entry starts (`@`), for messages.
    public var location: SourceLocation { source.location(of: offset) }

    /// The line where the entry starts.
    public var line: Int { source.line(of: offset) }

    /// The key that addresses this entry uniquely: `key` or, for a duplicate, `key#2`.
    public var address: String { occurrence == 1 ? key : "\(key)#\(occurrence)" }

    /// The address of this entry (`key`, or `key#2` for a duplicate), as a type of its own.
    public var entryAddress: EntryAddress { EntryAddress(address) }

    /// The cite key, as a type of its own (compared case-insensitively).
    public var citeKey: CiteKey { CiteKey(key) }

    /// The field's name in lower case (field names are case-insensitive).
    public func name(of field: Field) -> String { source.fieldNames.lowercase[Int(field.nameID)] }

    /// The field's name as the file spells it (`Bdsk-File-1`, `Date-Added`).
    public func spelledName(of field: Field) -> String { source.fieldNames.spellings[Int(field.nameID)] }

    /// The field with this (case-insensitive) name.
    public func field(_ name: String) -> Field? {
        // One pass over the name's bytes, without a closure per byte (a generic pass over
        // `utf8` cost more than comparing the names).
        let (hasUpper, isASCII) = name.utf8.withContiguousStorageIfAvailable(Self.caseAndASCII) ?? {
            var copy = name
            return copy.withUTF8(Self.caseAndASCII)
        }()
        let lower = hasUpper ? name.lowercased() : name
        let store = source.fieldNames
        let names = store.lowercase
        // Two ASCII names of different lengths differ: a field whose name the file keeps as
        // ASCII (`asciiLengths`, -1 for any other) is compared only when its length is the
        // name's. Any other name is compared as a String (`\u{212A}`, the Kelvin sign, is `k`).
        // Comparing every field's name as a String was a fifth of counting a library's groups.
        let lengths = store.asciiLengths
        let length = isASCII ? lower.utf8.count : -1
        for index in fields.indices {
            let id = Int(fields[index].nameID)
            let candidate = lengths[id]
            if length >= 0 && candidate >= 0 && candidate != length { continue }
            if names[id] == lower { return fields[index] }
        }
        return nil
    }

    /// Whether the bytes hold an ASCII capital, and whether they are all ASCII.
    private static func caseAndASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> (hasUpper: Bool, isASCII: Bool) {
        var hasUpper = false
        var isASCII = true
        for byte in bytes {
            if byte >= 0x80 { isASCII = false } else if byte >= 0x41 && byte <= 0x5A { hasUpper = true }
        }
        return (hasUpper, isASCII)
    }

    /// `field(_:)` as a pass comparing every field's name (what the tests compare it with).
    func fieldComparingEveryName(_ name: String) -> Field? {
        let lower = name.utf8.contains { $0 >= 0x41 && $0 <= 0x5A } ? name.lowercased() : name
        return fields.first { source.fieldNames.lowercase[Int($0.nameID)] == lower }
    }

    /// The field with this well-known name (a one-byte comparison per field).
    public func field(_ known: WellKnownField) -> Field? {
        guard has(known) else { return nil }
        for index in fields.indices where fields[index].kind.known == known {
            return fields[index]
        }
        return nil
    }

    /// The raw LaTeX value of a well-known field, or nil when it is missing.
    public func raw(_ known: WellKnownField) -> String? {
        // Not `.map(rawText(of:))`: a method reference as a closure copies the whole entry.
        guard let field = field(known) else { return nil }
        return rawText(of: field)
    }

    /// The decoded value of a well-known field, or nil when it is missing.
    public func decoded(_ known: WellKnownField) -> String? {
        guard let field = field(known) else { return nil }
        return decodedText(of: field)
    }

    /// The raw LaTeX value of a field, or nil when it is missing.
    public func raw(_ name: String) -> String? {
        guard let field = field(name) else { return nil }
        return rawText(of: field)
    }

    /// The value of a field with LaTeX turned into Unicode, or nil when it is missing.
    public func decoded(_ name: String) -> String? {
        guard let field = field(name) else { return nil }
        return decodedText(of: field)
    }

    /// The key of the `crossref` parent a field was inherited from, if it was.
    public func parent(of field: Field) -> String? {
        field.storage == .inherited ? parents[Int(field.second)] : nil
    }

    /// The raw LaTeX value of one of this entry's fields.
    public func rawText(of field: Field) -> String {
        switch field.storage {
        case .text, .inherited: return texts[Int(field.first)]
        case .span: return source.string(start: Int(field.first), count: Int(field.second))
        }
    }

    /// The Unicode value of one of this entry's fields. Paths, URLs and identifiers are only
    /// unescaped (`\\_` is `_`), never typeset: `--` in a URL stays `--`.
    public func decodedText(of field: Field) -> String {
        if field.isVerbatim { return LaTeX.decodeVerbatim(rawText(of: field)) }
        return withRawBytes(of: field) { LaTeX.decode($0) }
    }

    /// The size in bytes of a field's raw value (UTF-8, LaTeX as written).
    public func rawByteCount(of field: Field) -> Int {
        withRawBytes(of: field) { $0.count }
    }

    /// `decodedText(of:)` of at most the first `limit` bytes of the raw value, cut where a
    /// character starts: the beginning of a value too long to show whole, decoded without
    /// reading the rest.
    public func decodedText(of field: Field, upTo limit: Int) -> String {
        withRawBytes(of: field) { raw in
            let head = Entry.head(of: raw, upTo: limit)
            return field.isVerbatim ? LaTeX.decodeVerbatim(String(decoding: head, as: UTF8.self)) : LaTeX.decode(head)
        }
    }

    /// The first bytes of UTF-8 text, at most `limit`, cut where a character starts.
    static func head(of raw: UnsafeBufferPointer<UInt8>, upTo limit: Int) -> UnsafeBufferPointer<UInt8> {
        var end = min(raw.count, max(0, limit))
        while end > 0, end < raw.count, raw[end] & 0xC0 == 0x80 { end -= 1 }
        return UnsafeBufferPointer(rebasing: raw[..<end])
    }

    /// Calls `body` with the raw UTF-8 bytes of one of this entry's fields.
    public func withRawBytes<Result>(of field: Field, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch field.storage {
        case .span:
            return source.bytes.withUnsafeBufferPointer { buffer in
                body(UnsafeBufferPointer(rebasing: buffer[Int(field.first)..<Int(field.first + field.second)]))
            }
        case .text, .inherited:
            var text = texts[Int(field.first)]
            return text.withUTF8(body)
        }
    }

    /// Calls `body` with each field and the raw UTF-8 bytes of its value, in order, opening the
    /// source buffer once for all of them.
    public func forEachRawField(_ body: (Field, UnsafeBufferPointer<UInt8>) -> Void) {
        source.bytes.withUnsafeBufferPointer { buffer in
            for field in fields {
                switch field.storage {
                case .span:
                    body(field, UnsafeBufferPointer(rebasing: buffer[Int(field.first)..<Int(field.first + field.second)]))
                case .text, .inherited:
                    var text = texts[Int(field.first)]
                    text.withUTF8 { body(field, $0) }
                }
            }
        }
    }

    /// Makes room for `count` more inherited fields, so that inheriting them grows each
    /// array once.
    mutating func reserveInheritedFields(_ count: Int) {
        texts.reserveCapacity(texts.count + count)
        fields.reserveCapacity(fields.count + count)
    }

    /// Adds a field named by `nameID` (a number of `source.fieldNames`) inherited through
    /// `crossref` from `parents[parentSlot]` (see `parentSlot`).
    mutating func appendInheritedField(nameID: UInt32, text: String, nameOffset: Int, parentSlot: UInt32) {
        texts.append(text)
        let kind = source.fieldNames.kinds[Int(nameID)]
        knownFields |= Self.bit(of: kind.known)
        fields.append(Field(nameID: nameID, kind: kind, storage: .inherited,
                            first: UInt32(texts.count - 1), second: parentSlot, nameOffset: UInt32(clamping: nameOffset)))
    }

    /// The number of `parent` in `parents`, adding it when new; `known` remembers the numbers
    /// given so far, so that an entry inheriting from thousands of parents stays linear.
    mutating func parentSlot(for parent: String, known: inout [String: UInt32]) -> UInt32 {
        if known.isEmpty && !parents.isEmpty {
            for (index, key) in parents.enumerated() { known[key] = UInt32(index) }
        }
        if let slot = known[parent] { return slot }
        parents.append(parent)
        let slot = UInt32(parents.count - 1)
        known[parent] = slot
        return slot
    }
}

extension Entry {
    /// Where a field of this entry is written, for messages.
    public func location(of field: Field) -> SourceLocation {
        source.location(of: Int(field.nameOffset))
    }
}
