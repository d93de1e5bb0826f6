/// A single pass over a WebDAV `multistatus` answer that reads what a listing needs (each
/// response's href, size, ETag, modification date and whether it is a collection) without
/// building an XML tree or calling back per element.
///
/// It understands the XML servers send in these answers: a declaration, comments, elements
/// with any namespace prefix (matched by local name, as the Foundation reader is asked to),
/// attributes, the five predefined entities and character references. What it leaves to a full
/// XML parser (CDATA, a DTD, an encoding other than UTF-8, comments inside the document) it
/// says so, and the caller reads the answer with Foundation's instead, to the same result. An
/// answer that is not well-formed (cut short, tags that do not nest, an undefined entity) is
/// `malformed`: Foundation's parser would accept some of those and list fewer files.
struct MultistatusScanner {
    /// What the scan found.
    enum Outcome: Equatable {
        case responses([Response])
        case needsFullParser
        case malformed(String)
    }

    /// What one `<response>` says about one resource.
    struct Response: Equatable {
        var href = ""
        var size: Int64?
        var etag: String?
        var lastModified: Double?
        var isCollection = false
    }

    private let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The responses, in order, or why the scanner cannot give them.
    func scan() -> Outcome {
        bytes.withUnsafeBufferPointer { Self.scan($0) }
    }

    private static func scan(_ text: UnsafeBufferPointer<UInt8>) -> Outcome {
        var index = 0
        let end = text.count
        if end >= 3, text[0] == 0xEF, text[1] == 0xBB, text[2] == 0xBF { index = 3 }
        var responses: [Response] = []
        var current: Response?
        /// Open elements' qualified names, as ranges of `text`, to check that tags nest.
        var open: [Range<Int>] = []
        var sawRoot = false
        /// Where the character data since the last tag starts.
        var textStart = index
        while index < end {
            guard text[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            let dataEnd = index
            guard index + 1 < end else { return .malformed("it ends inside a tag") }
            switch text[index + 1] {
            case UInt8(ascii: "?"):
                // The declaration (UTF-8 only) or a processing instruction.
                guard let close = find(text, "?>", from: index + 2) else { return .malformed("it ends inside a processing instruction") }
                guard open.isEmpty else { return .needsFullParser }
                if !sawRoot && !declarationIsUTF8(text, index + 2, close) { return .needsFullParser }
                index = close + 2
                textStart = index
                continue
            case UInt8(ascii: "!"):
                // Comments only: CDATA and DTDs are for the full parser.
                // (Inside the root element, where text around a comment joins up, too.)
                guard open.isEmpty, starts(text, "<!--", at: index) else { return .needsFullParser }
                guard let close = find(text, "-->", from: index + 4) else { return .malformed("it ends inside a comment") }
                index = close + 3
                textStart = index
                continue
            default:
                break
            }
            let isEnd = text[index + 1] == UInt8(ascii: "/")
            var cursor = index + (isEnd ? 2 : 1)
            let nameStart = cursor
            while cursor < end, !isNameEnd(text[cursor]) { cursor += 1 }
            let nameRange = nameStart..<cursor
            guard !nameRange.isEmpty, isNameStart(text[nameStart]) else { return .malformed("a tag without a valid name at byte \(index)") }
            // Skip attributes, honouring quotes (a quoted value may hold `>`).
            var quote: UInt8 = 0
            while cursor < end {
                let byte = text[cursor]
                if quote != 0 {
                    if byte == quote { quote = 0 } else if byte == UInt8(ascii: "<") { return .malformed("'<' in an attribute value at byte \(cursor)") }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    if isEnd { return .malformed("an end tag with attributes at byte \(index)") }
                    quote = byte
                } else if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "<") {
                    break
                }
                cursor += 1
            }
            guard cursor < end, text[cursor] == UInt8(ascii: ">") else { return .malformed("a tag that does not end at byte \(index)") }
            let selfClosing = !isEnd && text[cursor - 1] == UInt8(ascii: "/")
            let local = localName(text, nameRange)
            var closes = isEnd
            if isEnd {
                guard let last = open.popLast(), equal(text, last, nameRange) else {
                    return .malformed("the end tag '\(string(text, nameRange))' does not match the open element")
                }
            } else {
                if open.isEmpty {
                    // One root element only.
                    if sawRoot { return .malformed("a second root element at byte \(index)") }
                    sawRoot = true
                }
                switch local {
                case .response: current = Response()
                case .collection: current?.isCollection = true
                default: break
                }
                if selfClosing { closes = true } else { open.append(nameRange) }
            }
            if closes {
                // `<a/>` ends as it starts, with no character data.
                let value: String
                switch selfClosing ? .text("") : characterData(text, textStart, dataEnd) {
                case .text(let text): value = text
                case .needsFullParser: return .needsFullParser
                case .malformed(let why): return .malformed(why)
                }
                switch local {
                case .href: current?.href = value
                case .contentLength: current?.size = Int64(value)
                case .etag: current?.etag = value
                case .lastModified: current?.lastModified = HTTPDate.parse(value)
                case .response:
                    if let finished = current { responses.append(finished) }
                    current = nil
                case .collection, .other: break
                }
            }
            index = cursor + 1
            textStart = index
        }
        guard sawRoot else { return .malformed("there is no XML element in it") }
        guard open.isEmpty else { return .malformed("it ends before the element '\(string(text, open[open.count - 1]))' is closed") }
        return .responses(responses)
    }

    private enum LocalName {
        case response, href, contentLength, etag, lastModified, collection, other
    }

    /// The element's local name (after any prefix), as far as a listing cares.
    private static func localName(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> LocalName {
        var start = range.lowerBound
        for position in range where text[position] == UInt8(ascii: ":") { start = position + 1 }
        let local = UnsafeBufferPointer(rebasing: text[start..<range.upperBound])
        if matches(local, "response") { return .response }
        if matches(local, "href") { return .href }
        if matches(local, "getcontentlength") { return .contentLength }
        if matches(local, "getetag") { return .etag }
        if matches(local, "getlastmodified") { return .lastModified }
        if matches(local, "collection") { return .collection }
        return .other
    }

    /// Character data, or why the scanner cannot give it.
    private enum CharacterData {
        case text(String)
        case needsFullParser
        case malformed(String)
    }

    /// The character data of `start ..< end` with entities replaced and XML whitespace trimmed.
    private static func characterData(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> CharacterData {
        var lower = start
        var upper = end
        while lower < upper, isXMLSpace(text[lower]) { lower += 1 }
        while upper > lower, isXMLSpace(text[upper - 1]) { upper -= 1 }
        let slice = UnsafeBufferPointer(rebasing: text[lower..<upper])
        // XML turns line ends inside text into newlines: the full parser's business.
        guard !slice.contains(0x0D) else { return .needsFullParser }
        guard slice.contains(UInt8(ascii: "&")) else { return .text(String(decoding: slice, as: UTF8.self)) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(slice.count)
        var position = 0
        while position < slice.count {
            let byte = slice[position]
            guard byte == UInt8(ascii: "&") else {
                decoded.append(byte)
                position += 1
                continue
            }
            guard let semicolon = slice[position...].firstIndex(of: UInt8(ascii: ";")), semicolon - position <= 12 else {
                return .malformed("a bare '&' in text at byte \(start + position)")
            }
            let name = UnsafeBufferPointer(rebasing: slice[(position + 1)..<semicolon])
            if matches(name, "amp") { decoded.append(UInt8(ascii: "&")) }
            else if matches(name, "lt") { decoded.append(UInt8(ascii: "<")) }
            else if matches(name, "gt") { decoded.append(UInt8(ascii: ">")) }
            else if matches(name, "quot") { decoded.append(UInt8(ascii: "\"")) }
            else if matches(name, "apos") { decoded.append(UInt8(ascii: "'")) }
            else if let scalar = characterReference(name) { decoded.append(contentsOf: String(Character(scalar)).utf8) }
            else { return .malformed("the entity '&\(String(decoding: name, as: UTF8.self));' is not defined") }
            position = semicolon + 1
        }
        // Entities may have produced whitespace at the ends, which the full parser keeps
        // inside the text it reports and the listing trims the same way.
        var value = Substring(String(decoding: decoded, as: UTF8.self))
        while let first = value.utf8.first, isXMLSpace(first) { value = value.dropFirst() }
        while let last = value.utf8.last, isXMLSpace(last) { value = value.dropLast() }
        return .text(String(value))
    }

    /// `#65` or `#x41` as a Unicode scalar XML allows.
    private static func characterReference(_ name: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        guard name.count >= 2, name[0] == UInt8(ascii: "#") else { return nil }
        let isHex = name[1] == UInt8(ascii: "x")
        let digits = String(decoding: UnsafeBufferPointer(rebasing: name[(isHex ? 2 : 1)...]), as: UTF8.self)
        guard !digits.isEmpty, let value = UInt32(digits, radix: isHex ? 16 : 10), let scalar = Unicode.Scalar(value) else { return nil }
        // XML 1.0 characters: no NUL or other C0 controls but tab, newline and return.
        guard value >= 0x20 || value == 0x09 || value == 0x0A || value == 0x0D, value != 0xFFFE, value != 0xFFFF else { return nil }
        return scalar
    }

    /// True when the declaration between `start` and `end` names no encoding or UTF-8.
    private static func declarationIsUTF8(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        let declaration = String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self).lowercased()
        guard declaration.hasPrefix("xml"), let range = declaration.range(of: "encoding") else { return true }
        let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
        return rest.hasPrefix("utf-8") || rest.hasPrefix("utf8")
    }

    private static func isNameEnd(_ byte: UInt8) -> Bool {
        isXMLSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "<")
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
            || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }

    private static func isXMLSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        return word.withUTF8Buffer { $0.elementsEqual(bytes) }
    }

    private static func string(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self)
    }

    private static func equal(_ text: UnsafeBufferPointer<UInt8>, _ first: Range<Int>, _ second: Range<Int>) -> Bool {
        first.count == second.count && text[first].elementsEqual(text[second])
    }

    private static func starts(_ text: UnsafeBufferPointer<UInt8>, _ prefix: StaticString, at index: Int) -> Bool {
        prefix.withUTF8Buffer { prefix in
            index + prefix.count <= text.count && text[index..<(index + prefix.count)].elementsEqual(prefix)
        }
    }

    /// The index where `needle` next starts at or after `from`.
    private static func find(_ text: UnsafeBufferPointer<UInt8>, _ needle: StaticString, from: Int) -> Int? {
        needle.withUTF8Buffer { needle in
            guard let first = needle.first else { return nil }
            var index = from
            while index + needle.count <= text.count {
                if text[index] == first, text[index..<(index + needle.count)].elementsEqual(needle) { return index }
                index += 1
            }
            return nil
        }
    }
}
