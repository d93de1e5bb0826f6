import Foundation

/// Reads BibTeX in one pass over UTF-8 bytes.
///
/// The grammar is BibTeX's: `@type{...}` or `@type(...)`; `@string`, `@preamble` and `@comment`
/// are special; values are `{...}`, `"..."`, bare numbers or macro names joined by `#`. On a syntax
/// error the parser reports it and resumes at the next `@` that starts a line.
struct BibParser {
    let source: SourceFile
    var macros: MacroTable
    var position = 0
    /// Where `run` stops: the end of the file, or the start of the next chunk.
    var end: Int
    /// The entries read, moved (not copied) when chunks are joined.
    let entries = EntryBuffer()
    var comments: [Block] = []
    var preambles: [Block] = []
    var documentInfo: [String: String] = [:]
    var stringNames: [String] = []
    var problems: [Diagnostic] = []
    var fieldNames: NameTable
    /// Set while this parser reads a later chunk of a file, at the same time as the chunks
    /// before it: uses of macros they may define are noted there, to be resolved when the
    /// chunks are joined.
    var deferred: DeferredMacros?
    /// Reused between entries so each entry's field array is allocated once, at its final size.
    private var scratchFields: [Field] = []
    /// For each name group, the number of the last entry that had it: finds duplicate fields
    /// in constant time.
    private var groupSeenInEntry: [Int] = []
    /// Per name group of `fieldNames`, what `macros` gave for that name when last looked up:
    /// a macro used again (`jan`, a journal's abbreviation) costs an array read, not a
    /// dictionary look-up of its name. An entry holds only while `macroGeneration` is what it
    /// was then; any change to `macros` moves it on.
    private var macroCache: [CachedMacro] = []
    private var macroGeneration = 1
    private var entryNumber = 0
    /// The bytes of `@string` values this file may still use: each use of a macro takes its
    /// length, so that macros that double at each definition (2^64 bytes from 64 lines) or
    /// grow a word at a time (the square of the file's length) cannot make the values larger
    /// than a few times the file.
    var expansionBudget: Int
    /// Where the last `{...}` or `"..."` value read opened and where it ended (after its closing
    /// delimiter): when an entry then turns out to have no end, that value is the likely culprit.
    private var lastDelimited = (open: -1, end: -1)

    /// The bytes of `@string` values a file of `size` bytes may use: 8 times its size and 1 MiB.
    static func expansionLimit(size: Int) -> Int { 8 * size + (1 << 20) }

    /// Parses `source`, reading and extending the shared macro table, with later chunks read
    /// at the same time from `chunkStarts` (increasing offsets; see `BibParser+Chunks.swift`
    /// and `chunkStarts(in:)`): the result is that of one pass over the whole file.
    static func parse(_ source: SourceFile, macros: inout MacroTable, chunkStarts: [Int]) -> BibFile {
        var parser = BibParser(source: source, macros: macros)
        if chunkStarts.isEmpty {
            source.bytes.withUnsafeBufferPointer { parser.run($0) }
        } else {
            parser.runInChunks(startingAt: chunkStarts)
        }
        macros = parser.macros
        let diagnostics = parser.problems
        return BibFile(source: source, entries: parser.entries.takeAll(), comments: parser.comments,
                       preambles: parser.preambles, strings: parser.stringNames, documentInfo: parser.documentInfo,
                       diagnostics: diagnostics)
    }

    private init(source: SourceFile, macros: MacroTable) {
        self.source = source
        self.macros = macros
        end = source.bytes.count
        fieldNames = NameTable(store: source.fieldNames)
        expansionBudget = BibParser.expansionLimit(size: source.bytes.count)
    }

    /// A parser for bytes `start ..< end` of `source`, read before the chunks ahead of it are:
    /// it starts with no macros, names fields in a store of its own, and defers what depends
    /// on the macros defined before `start`.
    init(chunkOf source: SourceFile, from start: Int, to end: Int) {
        self.source = source
        macros = .empty
        position = start
        self.end = end
        fieldNames = NameTable(store: FieldNameStore())
        expansionBudget = BibParser.expansionLimit(size: source.bytes.count)
        deferred = DeferredMacros()
    }

    // MARK: - Top level

    /// Reads blocks from `position` until the next one would start at or after `end`.
    mutating func run(_ text: UnsafeBufferPointer<UInt8>) {
        while position < end {
            guard let at = nextAt(text, from: position) else { break }
            position = at
            if at >= end { break }
            if isCommentedOut(text, at) {
                position += 1  // `%@article{...`: an entry the user commented out, as biber reads it
                continue
            }
            parseBlock(text)
        }
    }

    /// The offset of the next `@`, found with memchr.
    private func nextAt(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = text.baseAddress, start < text.count,
              let found = memchr(base + start, Int32(UInt8(ascii: "@")), text.count - start)
        else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// True when `offset` is preceded on its line only by blanks.
    private func startsLine(_ text: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Bool {
        var index = offset - 1
        while index >= 0 {
            switch text[index] {
            case 0x0A: return true
            case 0x20, 0x09, 0x0D: index -= 1
            default: return false
            }
        }
        return true
    }

    /// True when bytes `start ..< end` are `word` ignoring ASCII case.
    private func lowercasedEquals(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ word: StaticString) -> Bool {
        guard end - start == word.utf8CodeUnitCount else { return false }
        return word.withUTF8Buffer { expected in
            (0..<expected.count).allSatisfy { text[start + $0] | 0x20 == expected[$0] }
        }
    }

    /// True when the first non-blank character of the line holding `offset` is `%` (looking back
    /// at most 256 bytes, so that a long line of `@`s stays linear).
    private func isCommentedOut(_ text: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Bool {
        var index = offset - 1
        var firstNonBlank: UInt8?
        let limit = max(-1, offset - 257)
        while index > limit && text[index] != 0x0A {
            if text[index] != 0x20 && text[index] != 0x09 && text[index] != 0x0D { firstNonBlank = text[index] }
            index -= 1
        }
        return firstNonBlank == UInt8(ascii: "%")
    }

    /// After an error: skip to the next `@` that starts a line (not before `offset`).
    private mutating func recover(_ text: UnsafeBufferPointer<UInt8>, from offset: Int) {
        var search = offset
        while let at = nextAt(text, from: search) {
            if startsLine(text, at) {
                position = at
                return
            }
            search = at + 1
        }
        position = text.count
    }

    private mutating func report(_ severity: Diagnostic.Severity, at offset: Int, _ message: String) {
        problems.append(Diagnostic(severity, source: source, offset: offset, message: message))
    }

    private mutating func parseBlock(_ text: UnsafeBufferPointer<UInt8>) {
        let start = position
        position += 1
        skipBlanks(text)
        let typeStart = position
        while position < text.count, isIdentifierByte(text[position]) { position += 1 }
        let typeEnd = position
        if typeStart == typeEnd {
            return  // a lone `@` in free text
        }
        // BibTeX allows any white space, line breaks included, between the type and the brace.
        while position < text.count, isWhitespace(text[position]) { position += 1 }
        guard position < text.count, text[position] == UInt8(ascii: "{") || text[position] == UInt8(ascii: "(") else {
            let isBareComment = lowercasedEquals(text, typeStart, typeEnd, "comment")
            // `@comment` with no brace is BibTeX's own line comment: nothing to say.
            if startsLine(text, start) && !isBareComment {
                let word = String(decoding: UnsafeBufferPointer(rebasing: text[typeStart..<typeEnd]), as: UTF8.self)
                report(.warning, at: start, "ignored '@\(word)': expected '{' or '(' after the entry type")
            }
            return
        }
        let open = text[position]
        let close = open == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: ")")
        position += 1
        // Two statements: the lookup may add the name, which the receiver of `lower(of:)` must see.
        let typeName = fieldNames.name(text, typeStart, typeEnd)
        let type = fieldNames.lower(of: typeName)
        switch type {
        case "comment":
            parseComment(text, start: start, open: open, close: close)
        case "preamble":
            parsePreamble(text, start: start, close: close)
        case "string":
            parseStrings(text, start: start, close: close)
        default:
            parseEntry(text, start: start, type: type, close: close)
        }
    }

    // MARK: - Special blocks

    private mutating func parseComment(_ text: UnsafeBufferPointer<UInt8>, start: Int, open: UInt8, close: UInt8) {
        let bodyStart = position
        var depth = 0
        while position < text.count {
            let byte = text[position]
            if byte == open {
                depth += 1
            } else if byte == close {
                if depth == 0 {
                    comments.append(Block(text: string(text, start: bodyStart, count: position - bodyStart), offset: start))
                    position += 1
                    return
                }
                depth -= 1
            }
            position += 1
        }
        report(.error, at: start, "unterminated @comment: missing '\(Character(UnicodeScalar(close)))'")
        comments.append(Block(text: string(text, start: bodyStart, count: text.count - bodyStart), offset: start))
    }

    private mutating func parsePreamble(_ text: UnsafeBufferPointer<UInt8>, start: Int, close: UInt8) {
        skipWhitespace(text)
        guard let value = parseValue(text, close: close) else { return recover(text, from: position) }
        if deferred?.valueIsPending == true { return abandonChunk(text) }
        skipWhitespace(text)
        guard position < text.count, text[position] == close else {
            report(.error, at: position, "expected '\(Character(UnicodeScalar(close)))' to close @preamble")
            return recover(text, from: position)
        }
        position += 1
        preambles.append(Block(text: string(of: value, in: text), offset: start))
    }

    private mutating func parseStrings(_ text: UnsafeBufferPointer<UInt8>, start: Int, close: UInt8) {
        while true {
            skipWhitespace(text)
            guard position < text.count else {
                report(.error, at: start, "unterminated @string: missing '\(Character(UnicodeScalar(close)))'")
                return
            }
            if text[position] == close {
                position += 1
                return
            }
            if text[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard let (nameStart, nameEnd, value) = parseAssignment(text, close: close) else {
                return recover(text, from: position)
            }
            if deferred?.valueIsPending == true {
                return abandonChunk(text)  // a macro defined from ones not known yet
            }
            let name = string(text, start: nameStart, count: nameEnd - nameStart)
            let lower = name.lowercased()
            stringNames.append(name)
            // One look-up both sets the value and tells whether there was one.
            let redefined = macros.values.updateValue(string(of: value, in: text), forKey: lower) != nil
            forgetCachedMacros()
            if redefined && !MacroTable.isMonth(lower) {
                report(.warning, at: nameStart, "@string '\(name)' redefined")
            } else if deferred != nil && !MacroTable.isMonth(lower) {
                deferred?.noteRedefinitionCheck(lower: lower, spelled: name, offset: nameStart, problemIndex: problems.count)
            }
            skipWhitespace(text)
            if position < text.count, text[position] != close, text[position] != UInt8(ascii: ",") {
                report(.error, at: position, "expected ',' or '\(Character(UnicodeScalar(close)))' after the value of @string '\(name)', found \(describe(text, position))")
                return recover(text, from: position)
            }
        }
    }

    /// The value of the macro `name` names (any spelling), through `macroCache`.
    private mutating func macroValue(of name: NameTable.Name) -> String? {
        let group = name.group
        if group < macroCache.count {
            if macroCache[group].generation == macroGeneration { return macroCache[group].value }
        } else {
            macroCache.append(contentsOf: repeatElement(CachedMacro(), count: group + 1 - macroCache.count))
        }
        let value = macros.values[fieldNames.lower(of: name)]
        macroCache[group] = CachedMacro(generation: macroGeneration, value: value)
        return value
    }

    /// Makes every cached macro value stale: `macros` changed.
    mutating func forgetCachedMacros() {
        macroGeneration += 1
    }

    // MARK: - Entries

    private mutating func parseEntry(_ text: UnsafeBufferPointer<UInt8>, start: Int, type: String, close: UInt8) {
        let brace = position - 1
        skipWhitespace(text)
        let keyStart = position
        while position < text.count {
            let byte = text[position]
            if byte == UInt8(ascii: ",") || byte == close || isWhitespace(byte) { break }
            if close == UInt8(ascii: "}") && byte == UInt8(ascii: "{") { break }
            position += 1
        }
        let keyEnd = position
        skipWhitespace(text)
        var key = string(text, start: keyStart, count: keyEnd - keyStart)
        if position < text.count, text[position] == UInt8(ascii: "=") {
            // `@article{ author = ...`: no key at all; read the fields anyway.
            report(.warning, at: keyStart, "@\(type) has no cite key")
            position = keyStart
            key = ""
        } else if key.isEmpty {
            report(.warning, at: start, "@\(type) has an empty cite key")
        }
        scratchFields.removeAll(keepingCapacity: true)
        entryNumber += 1
        var texts: [String] = []
        fieldLoop: while true {
            skipWhitespace(text)
            guard position < text.count else {
                if !reportSwallowingValue(text, after: brace) {
                    report(.error, at: brace, "@\(type){\(key): this '\(Character(UnicodeScalar(text[brace])))' is never closed: the file ends first")
                }
                break
            }
            let byte = text[position]
            if byte == close {
                position += 1
                break
            }
            if byte == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if byte == UInt8(ascii: "@") && startsLine(text, position) {
                if !reportSwallowingValue(text, after: brace) {
                    let next = source.location(of: position)
                    report(.error, at: brace, "@\(type){\(key): this '\(Character(UnicodeScalar(text[brace])))' is never closed: the next entry starts at \(next.line):\(next.column)")
                }
                break
            }
            guard let (nameStart, nameEnd, value) = parseAssignment(text, close: close) else {
                recover(text, from: position)
                break fieldLoop
            }
            let names = fieldNames.name(text, nameStart, nameEnd)
            if names.group >= groupSeenInEntry.count {
                groupSeenInEntry += [Int](repeating: 0, count: names.group + 1 - groupSeenInEntry.count)
            }
            if groupSeenInEntry[names.group] == entryNumber {
                report(.warning, at: nameStart, "@\(type){\(key): duplicate field '\(fieldNames.spelled(of: names))', the first value is kept")
            } else {
                switch value {
                case .span(let start, let count):
                    groupSeenInEntry[names.group] = entryNumber
                    scratchFields.append(Field(nameID: names.id, kind: names.kind, storage: .span, first: start,
                                               second: count, nameOffset: UInt32(nameStart)))
                case .text(let string):
                    texts.append(string)
                    if deferred?.valueIsPending == true {
                        deferred?.notePendingText(entry: entries.count, text: texts.count - 1)
                    }
                    groupSeenInEntry[names.group] = entryNumber
                    scratchFields.append(Field(nameID: names.id, kind: names.kind, storage: .text,
                                               first: UInt32(texts.count - 1), second: 0, nameOffset: UInt32(nameStart)))
                }
            }
            skipWhitespace(text)
            guard position < text.count else { continue }
            let after = text[position]
            if after != UInt8(ascii: ",") && after != close {
                if after == UInt8(ascii: "@") && startsLine(text, position) && reportSwallowingValue(text, after: brace) {
                    break
                }
                report(.error, at: position, "expected ',' or '\(Character(UnicodeScalar(close)))' after the value of '\(fieldNames.spelled(of: names))', found \(describe(text, position))")
                recover(text, from: position)
                break
            }
        }
        // An exact-size copy: `Array(scratchFields)` would share the scratch buffer, and every
        // entry would keep one as large as the largest entry's.
        let fields = scratchFields.withUnsafeBufferPointer { Array($0) }
        if type == "bibdesk_info" {
            if deferred?.hasPendingTexts(inEntry: entries.count) == true { return abandonChunk(text) }
            // Names come from this parser's own store: in a later chunk the fields are numbered
            // in the chunk's store until it is joined, and the file's store (`source.fieldNames`)
            // is being written by the first chunk's thread meanwhile.
            let info = Entry(type: type, key: key, fields: fields, texts: texts, source: source, offset: start)
            for field in fields {
                documentInfo[fieldNames.store.spelling(of: field)] = info.rawText(of: field)
            }
            return
        }
        entries.append(Entry(type: type, key: key, fields: fields, texts: texts, source: source, offset: start))
    }

    /// `name = value # value ...`; reports and returns nil on a syntax error.
    private mutating func parseAssignment(_ text: UnsafeBufferPointer<UInt8>, close: UInt8) -> (nameStart: Int, nameEnd: Int, value: RawValue)? {
        let nameStart = position
        while position < text.count, isIdentifierByte(text[position]) { position += 1 }
        let nameEnd = position
        if nameEnd == nameStart {
            report(.error, at: position, "expected a field name, found \(describe(text, position))")
            return nil
        }
        skipWhitespace(text)
        guard position < text.count, text[position] == UInt8(ascii: "=") else {
            let name = string(text, start: nameStart, count: nameEnd - nameStart)
            report(.error, at: position, "expected '=' after '\(name)', found \(describe(text, position))")
            return nil
        }
        position += 1
        skipWhitespace(text)
        guard let value = parseValue(text, close: close) else { return nil }
        return (nameStart, nameEnd, value)
    }

    /// One or more value parts joined by `#`.
    private mutating func parseValue(_ text: UnsafeBufferPointer<UInt8>, close: UInt8) -> RawValue? {
        deferred?.beginValue()
        guard let first = parsePart(text) else { return nil }
        skipWhitespace(text)
        guard position < text.count, text[position] == UInt8(ascii: "#") else { return first }
        var combined = string(of: first, in: text)
        while position < text.count, text[position] == UInt8(ascii: "#") {
            position += 1
            skipWhitespace(text)
            deferred?.markPartStart(at: combined.utf8.count)
            guard let next = parsePart(text) else { return nil }
            combined += string(of: next, in: text)
            skipWhitespace(text)
        }
        return .text(combined)
    }

    private mutating func parsePart(_ text: UnsafeBufferPointer<UInt8>) -> RawValue? {
        guard position < text.count else {
            report(.error, at: position, "expected a value, found the end of the file")
            return nil
        }
        let open = position
        switch text[position] {
        case UInt8(ascii: "{"):
            return parseDelimited(text, open: open, quoted: false)
        case UInt8(ascii: "\""):
            return parseDelimited(text, open: open, quoted: true)
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            while position < text.count, isDigit(text[position]) { position += 1 }
            return .span(start: UInt32(open), count: UInt32(position - open))
        case let byte where isIdentifierByte(byte):
            while position < text.count, isIdentifierByte(text[position]) { position += 1 }
            let names = fieldNames.name(text, open, position)
            if let value = macroValue(of: names) {
                if value.utf8.count <= expansionBudget {
                    expansionBudget -= value.utf8.count
                    return .text(value)
                }
                if deferred != nil {
                    abandonChunk(text)
                    return nil
                }
                let limit = BibParser.expansionLimit(size: source.bytes.count)
                report(.error, at: open, "@string '\(fieldNames.spelled(of: names))' not expanded: the @string values used in this file would pass \(limit) bytes (8 × the file's size + 1 MiB); kept as text")
                return .text(fieldNames.spelled(of: names))
            }
            if deferred != nil {
                // Perhaps defined in an earlier chunk: resolved when the chunks are joined.
                deferred?.noteUse(lower: fieldNames.lower(of: names), spelled: fieldNames.spelled(of: names), offset: open,
                                  problemIndex: problems.count)
                return .text("")
            }
            let name = fieldNames.spelled(of: names)
            report(.warning, at: open, "undefined @string '\(name)', kept as text")
            return .text(name)
        default:
            report(.error, at: position, "expected a value ({...}, \"...\", a number or a @string name), found \(describe(text, position))")
            return nil
        }
    }

    /// A `{...}` or `"..."` value: braces balanced; a `@type{` at the start of a line inside it
    /// means the value was never closed.
    private mutating func parseDelimited(_ text: UnsafeBufferPointer<UInt8>, open: Int, quoted: Bool) -> RawValue? {
        position += 1
        let contentStart = position
        var depth = 0
        let count = text.count
        guard let base = text.baseAddress else { return nil }
        while position < count {
            // Eight bytes at a time up to the next byte that matters.
            if position &+ 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                let mask = BibParser.delimiterMask(word)
                if mask == 0 {
                    position &+= 8
                    continue
                }
                position &+= mask.trailingZeroBitCount &>> 3
            }
            let byte = text[position]
            switch byte {
            case UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: "}"):
                if depth == 0 {
                    if !quoted {
                        let value = RawValue.span(start: UInt32(contentStart), count: UInt32(position - contentStart))
                        position += 1
                        lastDelimited = (open, position)
                        return value
                    }
                    lastDelimited = (open, position + 1)
                    if !reportSwallowingValue(text, after: open - 1) {
                        report(.error, at: position, "unbalanced '}' inside a quoted value")
                    }
                    return nil
                }
                depth -= 1
            case UInt8(ascii: "\""):
                if quoted && depth == 0 {
                    let value = RawValue.span(start: UInt32(contentStart), count: UInt32(position - contentStart))
                    position += 1
                    lastDelimited = (open, position)
                    return value
                }
            case 0x0A:
                if BibParser.looksLikeEntryStart(text, after: position) {
                    let what = quoted ? "'\"'" : "'{'"
                    report(.error, at: open, "unterminated value: the \(what) opened here is not closed before the next entry")
                    position += 1
                    return nil
                }
            default:
                break
            }
            position += 1
        }
        report(.error, at: open, "unterminated value: the \(quoted ? "'\"'" : "'{'") opened here is not closed at end of file")
        return nil
    }

    /// When the last delimited value read after `limit` takes in a line that reads like a field
    /// (`  year = 2001,`), its opening delimiter is the one never closed: the entry's own `}`
    /// closed the value instead. Reports that, where the value opened, and returns true.
    private mutating func reportSwallowingValue(_ text: UnsafeBufferPointer<UInt8>, after limit: Int) -> Bool {
        let (open, end) = lastDelimited
        guard open > limit, end <= text.count, end > open else { return false }
        var index = open + 1
        while index < end - 1 {
            if text[index] == 0x0A {
                var cursor = index + 1
                while cursor < end, text[cursor] == UInt8(ascii: " ") || text[cursor] == UInt8(ascii: "\t") { cursor += 1 }
                let nameStart = cursor
                while cursor < end, isIdentifierByte(text[cursor]) { cursor += 1 }
                let nameEnd = cursor
                while cursor < end, text[cursor] == UInt8(ascii: " ") || text[cursor] == UInt8(ascii: "\t") { cursor += 1 }
                if nameEnd > nameStart, cursor < end, text[cursor] == UInt8(ascii: "=") {
                    let delimiter = Character(UnicodeScalar(text[open]))
                    let swallowed = source.location(of: nameStart)
                    let last = source.location(of: end - 1)
                    let name = string(text, start: nameStart, count: nameEnd - nameStart)
                    report(.error, at: open, "this '\(delimiter)' is never closed: its value takes in '\(name)' on line \(swallowed.line) and runs on to \(last.line):\(last.column)")
                    return true
                }
            }
            index += 1
        }
        return false
    }

    /// The high bit of each byte of `word` (eight bytes, the first in the low bits) that is `{`,
    /// `}`, `"` or a line feed; above the first such byte, other bits may be set too (a borrow),
    /// so only the lowest set bit is exact.
    @inline(__always) static func delimiterMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func zeroBytes(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        return zeroBytes(word ^ (ones &* 0x7B)) | zeroBytes(word ^ (ones &* 0x7D))
            | zeroBytes(word ^ (ones &* 0x22)) | zeroBytes(word ^ (ones &* 0x0A))
    }

    /// True when the line after the newline at `newline` starts with `@name{` or `@name(`.
    static func looksLikeEntryStart(_ text: UnsafeBufferPointer<UInt8>, after newline: Int) -> Bool {
        var index = newline + 1
        while index < text.count, text[index] == 0x20 || text[index] == 0x09 { index += 1 }
        guard index < text.count, text[index] == UInt8(ascii: "@") else { return false }
        index += 1
        let nameStart = index
        while index < text.count, isIdentifierByte(text[index]) { index += 1 }
        guard index > nameStart else { return false }
        while index < text.count, isWhitespace(text[index]) { index += 1 }
        return index < text.count && (text[index] == UInt8(ascii: "{") || text[index] == UInt8(ascii: "("))
    }

    // MARK: - Helpers

    private func string(_ text: UnsafeBufferPointer<UInt8>, start: Int, count: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: text[start..<(start + count)]), as: UTF8.self)
    }

    private func string(of value: RawValue, in text: UnsafeBufferPointer<UInt8>) -> String {
        switch value {
        case .text(let string): return string
        case .span(let start, let count): return string(text, start: Int(start), count: Int(count))
        }
    }

    private func describe(_ text: UnsafeBufferPointer<UInt8>, _ offset: Int) -> String {
        guard offset < text.count else { return "the end of the file" }
        var end = offset + 1
        while end < text.count, text[end] & 0xC0 == 0x80 { end += 1 }
        let character = String(decoding: UnsafeBufferPointer(rebasing: text[offset..<end]), as: UTF8.self)
        switch text[offset] {
        case 0x0A, 0x0D: return "a line break"
        case 0x09: return "a tab"
        case 0x00: return "a NUL byte (U+0000)"
        case 0x01..<0x20, 0x7F: return "the control character " + String(format: "U+%04X", Int(text[offset]))
        default: return "'\(character)'"
        }
    }

    /// Skips white space and, as biber does, `%` comments that run to the end of a line.
    @inline(__always) private mutating func skipWhitespace(_ text: UnsafeBufferPointer<UInt8>) {
        position = BibParser.skippingWhitespace(text, from: position)
    }

    /// The offset of the first byte from `start` on that is neither white space nor in a `%`
    /// comment (the editor's `EntryLayout` reads entries by the same rule).
    @inline(__always) static func skippingWhitespace(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var position = start
        while position < text.count {
            let byte = text[position]
            if isWhitespace(byte) {
                position += 1
            } else if byte == UInt8(ascii: "%") {
                while position < text.count, text[position] != 0x0A { position += 1 }
            } else {
                return position
            }
        }
        return position
    }

    private mutating func skipBlanks(_ text: UnsafeBufferPointer<UInt8>) {
        while position < text.count, text[position] == 0x20 || text[position] == 0x09 { position += 1 }
    }
}

@inline(__always) func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C || byte == 0x0B
}

@inline(__always) func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

/// BibTeX identifiers: any printable character except `"#%'(),={}` and `@`; every byte of
/// 0x80 and up (UTF-8). Read from two 64-bit masks of the ASCII bytes: a `switch` compiles to
/// an indirect jump for every byte of a name.
@inline(__always) func isIdentifierByte(_ byte: UInt8) -> Bool {
    if byte >= 0x80 { return true }
    // Bits 0x21...0x3F but `"#%'(),=`; bits 0x41...0x7E but `{}`.
    let mask: UInt64 = byte < 64 ? 0xDFFF_EC52_0000_0000 : 0x57FF_FFFF_FFFF_FFFE
    return (mask >> UInt64(byte & 63)) & 1 != 0
}

/// What a parser knows of one macro name (see `BibParser.macroCache`).
private struct CachedMacro {
    /// The parser's `macroGeneration` when `value` was looked up; 0, never one, for none.
    var generation = 0
    var value: String?
}
