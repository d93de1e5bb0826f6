import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads XML property lists with Foundation's streaming `XMLParser` (SAX events, no tree and no
/// recursion), capping the nesting and the number of values, refusing entity declarations, and
/// reporting syntax errors with the parser's line and column.
enum XMLPlistReader {
    /// Reads the plist in `bytes` within `limits`.
    static func read(_ bytes: [UInt8], limits: ReadingListLimits) throws -> PlistValue {
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
            throw Self.malformed("the document declares the encoding \(PlistValue.quoted(encoding)); only UTF-8 is supported",
                                 at: start, in: bytes)
        }
        if let entity = Self.find(Array("<!ENTITY".utf8), in: body) {
            throw Self.malformed("entity declarations are not allowed in a property list", at: entity, in: bytes)
        }
        let parser = XMLParser(data: Data(body))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        let builder = XMLPlistBuilder(maxDepth: limits.maxValueDepth, maxValues: limits.maxValues,
                                      lineOffset: skippedLines, columnOffset: skippedColumns)
        parser.delegate = builder
        let finished = parser.parse()
        if let failure = builder.failure { throw failure }
        if !finished || parser.parserError != nil {
            let code = (parser.parserError as NSError?)?.code ?? 0
            throw ReadingListError.malformed(format: .xml, location: builder.location(parser),
                                             message: XMLPlistBuilder.describe(code: code))
        }
        guard let root = builder.root else {
            throw ReadingListError.malformed(format: .xml, location: nil, message: "the property list holds no value")
        }
        return root
    }

    /// A syntax error at byte `offset` of `bytes`, located as `line:column`.
    private static func malformed(_ message: String, at offset: Int, in bytes: [UInt8]) -> ReadingListError {
        let (line, column) = position(of: offset, in: bytes)
        return .malformed(format: .xml, location: "\(line):\(column)", message: message)
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

/// The `XMLParser` delegate that builds `PlistValue`s, with a stack of open containers.
private final class XMLPlistBuilder: NSObject, XMLParserDelegate {
    /// An open `<array>` or `<dict>`.
    private struct Container {
        let isDictionary: Bool
        var items: [PlistValue] = []
        var dictionary = PlistDictionary()
        var pendingKey: String?
    }

    /// An open element whose text is its value.
    private enum Leaf: String {
        case key, string, integer, real, date, data
        case `true`, `false`
    }

    private let maxDepth: Int
    private var budget: ValueBudget
    private let lineOffset: Int
    private let columnOffset: Int
    private var containers: [Container] = []
    private var leaf: Leaf?
    private var text = ""
    private var insidePlist = false
    private(set) var root: PlistValue?
    private(set) var failure: ReadingListError?

    init(maxDepth: Int, maxValues: Int, lineOffset: Int, columnOffset: Int) {
        self.maxDepth = maxDepth
        self.budget = ValueBudget(limit: maxValues)
        self.lineOffset = lineOffset
        self.columnOffset = columnOffset
    }

    /// The parser's position as `line:column` in the original input.
    func location(_ parser: XMLParser) -> String {
        let line = parser.lineNumber
        let column = parser.columnNumber
        return "\(line + lineOffset):\(line <= 1 ? column + columnOffset : column)"
    }

    /// Records the first error and stops the parser (which may still send a few events).
    private func fail(_ parser: XMLParser, _ message: String) {
        guard failure == nil else { return }
        failure = .malformed(format: .xml, location: location(parser), message: message)
        parser.abortParsing()
    }

    private func fail(_ parser: XMLParser, _ error: ReadingListError) {
        guard failure == nil else { return }
        failure = error
        parser.abortParsing()
    }

    /// A message for one of `XMLParser`'s error codes (libxml2's numbers, on every platform).
    static func describe(code: Int) -> String {
        switch code {
        case 4: return "the document is empty"
        case 5: return "the document ends before its elements are closed"
        case 6, 7, 8, 9: return "the text holds a character XML does not allow"
        case 14, 22, 23, 26, 27: return "an entity reference is malformed or unknown (write & as &amp;)"
        case 31, 32, 79, 81: return "the document's encoding is not supported"
        case 38, 39, 40, 41, 42: return "an attribute is malformed"
        case 45: return "a comment is not closed"
        case 56, 57: return "the XML declaration is malformed"
        case 63: return "a CDATA section is not closed"
        case 64: return "the XML declaration is not at the start of the document"
        case 68: return "a tag has no name"
        case 72, 73, 77: return "a tag is not closed with >"
        case 76: return "a closing tag does not match its opening tag"
        case 85: return "the elements are not well balanced"
        case 86: return "there is content after the end of the document"
        case 89: return "entity references loop or expand too much"
        default: return "XML syntax error (code \(code))"
        }
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        guard failure == nil else { return }
        if let leaf {
            return fail(parser, "<\(elementName)> inside <\(leaf.rawValue)>")
        }
        if elementName == "plist" {
            guard !insidePlist, containers.isEmpty, root == nil else { return fail(parser, "a <plist> inside the property list") }
            insidePlist = true
            return
        }
        let isKey = elementName == "key"
        if isKey {
            guard let last = containers.last, last.isDictionary else { return fail(parser, "a <key> outside a <dict>") }
            if let pending = last.pendingKey {
                return fail(parser, "the key \(PlistValue.quoted(pending)) has no value")
            }
        } else {
            if containers.isEmpty, root != nil { return fail(parser, "more than one value at the top of the property list") }
            if let last = containers.last, last.isDictionary, last.pendingKey == nil {
                return fail(parser, "<\(elementName)> in a <dict> without a <key> before it")
            }
        }
        do {
            try budget.spend()
        } catch let error as ReadingListError {
            return fail(parser, error)
        } catch {
            return fail(parser, "\(error)")
        }
        switch elementName {
        case "dict", "array":
            guard containers.count < maxDepth else { return fail(parser, ReadingListError.valueNesting(limit: maxDepth)) }
            containers.append(Container(isDictionary: elementName == "dict"))
        default:
            guard let kind = Leaf(rawValue: elementName) else { return fail(parser, "unknown element <\(elementName)>") }
            leaf = kind
            text = ""
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard failure == nil else { return }
        if let kind = leaf {
            leaf = nil
            let content = text
            text = ""
            if kind == .key {
                containers[containers.count - 1].pendingKey = content
                return
            }
            guard let value = value(of: kind, content, parser) else { return }
            deliver(value)
            return
        }
        switch elementName {
        case "dict", "array":
            guard let container = containers.popLast() else { return }
            if let pending = container.pendingKey {
                return fail(parser, "the key \(PlistValue.quoted(pending)) has no value")
            }
            deliver(container.isDictionary ? .dictionary(container.dictionary) : .array(container.items))
        default:
            break
        }
    }

    /// Adds a finished value to the open container, or makes it the root.
    private func deliver(_ value: PlistValue) {
        guard let last = containers.indices.last else {
            root = value
            return
        }
        if containers[last].isDictionary {
            containers[last].dictionary.append(containers[last].pendingKey ?? "", value)
            containers[last].pendingKey = nil
        } else {
            containers[last].items.append(value)
        }
    }

    /// The value of a leaf element from its text.
    private func value(of kind: Leaf, _ content: String, _ parser: XMLParser) -> PlistValue? {
        let trimmed = content.trimmingCharacters(in: .whitespacesAndNewlines)
        switch kind {
        case .string, .key:
            return .string(content)
        case .true:
            return .boolean(true)
        case .false:
            return .boolean(false)
        case .integer:
            if let number = Self.integer(trimmed) { return number }
            fail(parser, "<integer> holds \(PlistValue.quoted(trimmed)), not an integer")
        case .real:
            if let number = Double(trimmed), !trimmed.lowercased().hasPrefix("0x") { return .real(number) }
            fail(parser, "<real> holds \(PlistValue.quoted(trimmed)), not a number")
        case .date:
            if let date = ISO8601DateFormatter().date(from: trimmed) { return .date(date.timeIntervalSinceReferenceDate) }
            fail(parser, "<date> holds \(PlistValue.quoted(trimmed)), not a date like 2024-01-31T12:00:00Z")
        case .data:
            let compact = String(trimmed.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) })
            if let data = Data(base64Encoded: compact) { return .data([UInt8](data)) }
            fail(parser, "<data> does not hold base64")
        }
        return nil
    }

    /// A plist integer: decimal, or hexadecimal after 0x; too large ones become reals.
    private static func integer(_ text: String) -> PlistValue? {
        var digits = Substring(text)
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        if digits.lowercased().hasPrefix("0x") {
            guard let magnitude = UInt64(digits.dropFirst(2), radix: 16) else { return nil }
            if negative { return magnitude <= 1 << 63 ? .integer(Int64(bitPattern: 0 &- magnitude)) : .real(-Double(magnitude)) }
            return magnitude <= UInt64(Int64.max) ? .integer(Int64(magnitude)) : .real(Double(magnitude))
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        if let number = Int64(text) { return .integer(number) }
        return Double(text).map { .real($0) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard failure == nil else { return }
        if leaf != nil {
            text += string
        } else if string.contains(where: { !$0.isWhitespace }) {
            fail(parser, "unexpected text \(PlistValue.quoted(string.trimmingCharacters(in: .whitespacesAndNewlines)))")
        }
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        foundCharacters(parser, String(decoding: CDATABlock, as: UTF8.self))
    }

    private func foundCharacters(_ parser: XMLParser, _ string: String) {
        self.parser(parser, foundCharacters: string)
    }

    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        fail(parser, "entity declarations are not allowed in a property list")
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        fail(parser, "entity declarations are not allowed in a property list")
    }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        nil
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard failure == nil else { return }
        let code = (parseError as NSError).code
        failure = .malformed(format: .xml, location: location(parser), message: Self.describe(code: code))
    }
}
