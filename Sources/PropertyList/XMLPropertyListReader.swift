import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads XML property lists with Foundation's streaming `XMLParser` (SAX events, no tree and no
/// recursion), capping the nesting and the number of values, refusing entity declarations, and
/// reporting syntax errors with the parser's line and column.
enum XMLPropertyListReader {
    /// Reads the plist in `bytes` within `limits`.
    static func read(_ bytes: [UInt8], limits: PropertyListLimits) throws(PropertyListError) -> PropertyListValue {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        var skippedLines = 0
        var skippedColumns = 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) {
            if bytes[start] == 0x0A {
                skippedLines += 1
                skippedColumns = 0
            } else {
                skippedColumns += 1
            }
            start += 1
        }
        let body = bytes[start...]
        // FoundationXML on Linux force-unwraps element, attribute and comment names as UTF-8
        // (and libxml2 may hand it raw bytes after an encoding error): only well-formed UTF-8
        // reaches the parser.
        if let bad = UTF8Validation.firstInvalidByte(in: body) {
            throw Self.malformed("the text is not valid UTF-8", at: bad, in: bytes)
        }
        if let encoding = Self.declaredEncoding(body),
           !["utf-8", "utf8", "us-ascii", "ascii"].contains(encoding.lowercased()) {
            throw Self.malformed("the document declares the encoding \(PropertyListValue.quoted(encoding)); only UTF-8 is supported",
                                 at: start, in: bytes)
        }
        if let entity = Self.find(Array("<!ENTITY".utf8), in: body) {
            throw Self.malformed("entity declarations are not allowed in a property list", at: entity, in: bytes)
        }
        // FoundationXML crashes (strlen of a null pointer) on a processing instruction without
        // data, such as `<?x?>`; plists have none but the XML declaration, so refuse them all.
        if let instruction = Self.firstProcessingInstruction(in: body) {
            throw Self.malformed("processing instructions (<?…?>) are not allowed in a property list", at: instruction, in: bytes)
        }
        let parser = XMLParser(data: Data(body))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        let builder = XMLPropertyListBuilder(maxDepth: limits.maxDepth, maxValues: limits.maxValues,
                                      lineOffset: skippedLines, columnOffset: skippedColumns)
        parser.delegate = builder
        let finished = parser.parse()
        if let failure = builder.failure { throw failure }
        if !finished || parser.parserError != nil {
            let code = (parser.parserError as NSError?)?.code ?? 0
            throw .malformed(format: .xml, location: builder.location(parser), message: XMLPropertyListBuilder.describe(code: code))
        }
        guard let root = builder.root else {
            throw .malformed(format: .xml, location: nil, message: "the property list holds no value")
        }
        return root
    }

    /// Where the first `<?` that is not the XML declaration opening the document is, outside
    /// comments and CDATA sections; nil when there is none.
    ///
    /// The declaration is `<?xml` and white space at the very start, up to its `?>`.
    static func firstProcessingInstruction(in body: ArraySlice<UInt8>) -> Int? {
        let open = UInt8(ascii: "<"), question = UInt8(ascii: "?")
        var index = body.startIndex
        if body.starts(with: Array("<?xml".utf8)), body.count > 5,
           [0x20, 0x09, 0x0A, 0x0D].contains(body[body.startIndex + 5]) {
            guard let end = find(Array("?>".utf8), in: body[(body.startIndex + 5)...]) else { return body.startIndex }
            index = end + 2
        }
        while index < body.endIndex {
            guard body[index] == open, index + 1 < body.endIndex else {
                index += 1
                continue
            }
            let rest = body[index...]
            if body[index + 1] == question { return index }
            if rest.starts(with: Array("<!--".utf8)) {
                guard let end = find(Array("-->".utf8), in: body[(index + 4)...]) else { return nil }
                index = end + 3
            } else if rest.starts(with: Array("<![CDATA[".utf8)) {
                guard let end = find(Array("]]>".utf8), in: body[(index + 9)...]) else { return nil }
                index = end + 3
            } else {
                index += 1
            }
        }
        return nil
    }

    /// A syntax error at byte `offset` of `bytes`, located as `line:column`.
    private static func malformed(_ message: String, at offset: Int, in bytes: [UInt8]) -> PropertyListError {
        let (line, column) = position(of: offset, in: bytes)
        return .malformed(format: .xml, location: .line(line, column: column), message: message)
    }

    /// The `encoding` of the XML declaration at the start of `body`, if it names one.
    private static func declaredEncoding(_ body: ArraySlice<UInt8>) -> String? {
        guard body.starts(with: Array("<?xml".utf8)) else { return nil }
        let declaration = body.prefix(200).prefix { $0 != UInt8(ascii: ">") }
        let text = String(decoding: declaration, as: UTF8.self)
        guard let range = text.range(of: "encoding") else { return nil }
        let rest = text[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    /// Where `needle` first occurs in `haystack`, as an index of `haystack`.
    private static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while index <= last {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }

    /// The 1-based line and column (in characters) of byte `offset`.
    private static func position(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        return (line, column)
    }
}

