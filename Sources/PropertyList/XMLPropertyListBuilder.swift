import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The `XMLParser` delegate that builds `PropertyListValue`s, with a stack of open containers.
final class XMLPropertyListBuilder: NSObject, XMLParserDelegate {
    /// An open `<array>` or `<dict>`.
    private struct Container {
        let isDictionary: Bool
        var items: [PropertyListValue] = []
        var dictionary = PropertyListDictionary()
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
    private(set) var root: PropertyListValue?
    private(set) var failure: PropertyListError?

    init(maxDepth: Int, maxValues: Int, lineOffset: Int, columnOffset: Int) {
        self.maxDepth = maxDepth
        self.budget = ValueBudget(limit: maxValues)
        self.lineOffset = lineOffset
        self.columnOffset = columnOffset
    }

    /// The parser's position as `line:column` in the original input.
    func location(_ parser: XMLParser) -> PropertyListLocation {
        let line = parser.lineNumber
        let column = parser.columnNumber
        return .line(line + lineOffset, column: line <= 1 ? column + columnOffset : column)
    }

    /// Records the first error and stops the parser (which may still send a few events).
    private func fail(_ parser: XMLParser, _ message: String) {
        guard failure == nil else { return }
        failure = .malformed(format: .xml, location: location(parser), message: message)
        parser.abortParsing()
    }

    private func fail(_ parser: XMLParser, _ error: PropertyListError) {
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
                return fail(parser, "the key \(PropertyListValue.quoted(pending)) has no value")
            }
        } else {
            if containers.isEmpty, root != nil { return fail(parser, "more than one value at the top of the property list") }
            if let last = containers.last, last.isDictionary, last.pendingKey == nil {
                return fail(parser, "<\(elementName)> in a <dict> without a <key> before it")
            }
        }
        do throws(PropertyListError) {
            try budget.spend()
        } catch {
            return fail(parser, error)
        }
        switch elementName {
        case "dict", "array":
            guard containers.count < maxDepth else { return fail(parser, PropertyListError.nestingTooDeep(limit: maxDepth)) }
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
                return fail(parser, "the key \(PropertyListValue.quoted(pending)) has no value")
            }
            deliver(container.isDictionary ? .dictionary(container.dictionary) : .array(container.items))
        default:
            break
        }
    }

    /// Adds a finished value to the open container, or makes it the root.
    private func deliver(_ value: PropertyListValue) {
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
    private func value(of kind: Leaf, _ content: String, _ parser: XMLParser) -> PropertyListValue? {
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
            fail(parser, "<integer> holds \(PropertyListValue.quoted(trimmed)), not an integer")
        case .real:
            if let number = Double(trimmed), !trimmed.lowercased().hasPrefix("0x") { return .real(number) }
            fail(parser, "<real> holds \(PropertyListValue.quoted(trimmed)), not a number")
        case .date:
            if let date = ISO8601DateFormatter().date(from: trimmed) { return .date(date.timeIntervalSinceReferenceDate) }
            fail(parser, "<date> holds \(PropertyListValue.quoted(trimmed)), not a date like 2024-01-31T12:00:00Z")
        case .data:
            let compact = String(trimmed.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) })
            if let data = Data(base64Encoded: compact) { return .data([UInt8](data)) }
            fail(parser, "<data> does not hold base64")
        }
        return nil
    }

    /// A plist integer: decimal, or hexadecimal after 0x; too large ones become reals.
    private static func integer(_ text: String) -> PropertyListValue? {
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
            fail(parser, "unexpected text \(PropertyListValue.quoted(string.trimmingCharacters(in: .whitespacesAndNewlines)))")
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
