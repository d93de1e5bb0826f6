import PropertyList

/// Reads JSON into plist values without recursion: an explicit stack of open containers,
/// capped in depth, every value counted against `maxValues`, and syntax errors reported with
/// their line and column. Syntax errors are `ReadingListError`s; the caps throw the
/// `PropertyListError`s the plist readers throw, which `ReadingListCoder` words for a list.
struct JSONReader {
    /// An open `[…]` or `{…}`.
    private struct Container {
        let isObject: Bool
        var items: [PropertyListValue] = []
        var dictionary = PropertyListDictionary()
        var pendingKey = ""

        var value: PropertyListValue { isObject ? .dictionary(dictionary) : .array(items) }

        mutating func add(_ value: PropertyListValue) {
            if isObject {
                dictionary.append(pendingKey, value)
            } else {
                items.append(value)
            }
        }
    }

    private let bytes: [UInt8]
    private var index = 0
    private let maxDepth: Int
    private var budget: ValueBudget

    /// Reads the JSON text in `bytes` within `limits`.
    static func read(_ bytes: [UInt8], limits: ReadingListLimits) throws -> PropertyListValue {
        var reader = JSONReader(bytes: bytes, limits: limits)
        if let bad = UTF8Validation.firstInvalidByte(in: bytes[...]) {
            throw reader.error("the text is not valid UTF-8", at: bad)
        }
        return try reader.readDocument()
    }

    private init(bytes: [UInt8], limits: ReadingListLimits) {
        self.bytes = bytes
        self.maxDepth = limits.maxValueDepth
        self.budget = ValueBudget(limit: limits.maxValues)
    }

    // MARK: - Errors

    /// A syntax error at byte `offset`, located as `line:column` (columns count characters).
    private func error(_ message: String, at offset: Int) -> ReadingListError {
        var line = 1
        var column = 1
        for byte in bytes[0..<min(offset, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return .malformed(format: .json, location: "\(line):\(column)", message: message)
    }

    /// What is at `index`, for messages: a quoted character or "the end of the text".
    private var found: String {
        guard index < bytes.count else { return "the end of the text" }
        var end = index + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return PropertyListValue.quoted(String(decoding: bytes[index..<end], as: UTF8.self))
    }

    // MARK: - Structure

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func readDocument() throws -> PropertyListValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        var stack: [Container] = []
        var finished: PropertyListValue?
        while true {
            if finished == nil {
                skipWhitespace()
                guard index < bytes.count else { throw error("expected a value, found the end of the text", at: index) }
                try budget.spend()
                switch bytes[index] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let isObject = bytes[index] == UInt8(ascii: "{")
                    guard stack.count < maxDepth else { throw PropertyListError.nestingTooDeep(limit: maxDepth) }
                    index += 1
                    skipWhitespace()
                    let close = UInt8(ascii: isObject ? "}" : "]")
                    if index < bytes.count, bytes[index] == close {
                        index += 1
                        finished = Container(isObject: isObject).value
                    } else {
                        var container = Container(isObject: isObject)
                        if isObject { container.pendingKey = try readKey() }
                        stack.append(container)
                        continue
                    }
                case UInt8(ascii: "\""):
                    finished = .string(try readString())
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    finished = try readNumber()
                case UInt8(ascii: "t"):
                    try readLiteral("true")
                    finished = .boolean(true)
                case UInt8(ascii: "f"):
                    try readLiteral("false")
                    finished = .boolean(false)
                case UInt8(ascii: "n"):
                    try readLiteral("null")
                    finished = .null
                default:
                    throw error("expected a value, found \(found)", at: index)
                }
            }
            guard let value = finished else { continue }
            guard let last = stack.indices.last else {
                skipWhitespace()
                guard index == bytes.count else { throw error("unexpected \(found) after the end of the JSON value", at: index) }
                return value
            }
            stack[last].add(value)
            finished = nil
            skipWhitespace()
            let isObject = stack[last].isObject
            guard index < bytes.count else {
                throw error("expected , or \(isObject ? "}" : "]"), found the end of the text", at: index)
            }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                if isObject { stack[last].pendingKey = try readKey() }
            case UInt8(ascii: "}") where isObject, UInt8(ascii: "]") where !isObject:
                index += 1
                finished = stack.removeLast().value
            default:
                throw error("expected , or \(isObject ? "}" : "]"), found \(found)", at: index)
            }
        }
    }

    /// `"key" :` — the key of an object member, leaving `index` at its value.
    private mutating func readKey() throws -> String {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw error("expected a key in double quotes, found \(found)", at: index)
        }
        let key = try readString()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw error("expected : after the key \(PropertyListValue.quoted(key)), found \(found)", at: index)
        }
        index += 1
        return key
    }

    private mutating func readLiteral(_ word: String) throws {
        let expected = Array(word.utf8)
        guard bytes.count - index >= expected.count, bytes[index..<(index + expected.count)].elementsEqual(expected) else {
            throw error("expected a value, found \(found)", at: index)
        }
        index += expected.count
    }

    // MARK: - Scalars

    /// A string from its opening quote; leaves `index` after the closing one.
    private mutating func readString() throws -> String {
        let start = index
        index += 1
        var buffer: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("the string is not closed", at: start) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("the string is not closed", at: start) }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try readHex4()
                    if (0xD800..<0xDC00).contains(code), bytes.count - index >= 6,
                       bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                        let save = index
                        index += 2
                        let low = try readHex4()
                        if (0xDC00..<0xE000).contains(low) {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            index = save
                        }
                    }
                    let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                    buffer += Array(String(Character(scalar)).utf8)
                default:
                    throw error("unknown escape \\\(String(decoding: [escape], as: UTF8.self)) in a string", at: index - 2)
                }
            default:
                guard byte >= 0x20 else { throw error("a control character inside a string (write it as \\u escape)", at: index) }
                buffer.append(byte)
                index += 1
            }
        }
    }

    private mutating func readHex4() throws -> UInt32 {
        guard bytes.count - index >= 4,
              let code = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16) else {
            throw error("a \\u escape needs four hexadecimal digits", at: index)
        }
        index += 4
        return code
    }

    /// A number by JSON's grammar: an integer when it has no fraction or exponent and fits.
    private mutating func readNumber() throws -> PropertyListValue {
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        guard digits() > 0 else { throw error("expected digits after -", at: index) }
        if bytes[integerStart] == UInt8(ascii: "0"), index - integerStart > 1 {
            throw error("a number has a leading zero", at: integerStart)
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            isInteger = false
            guard digits() > 0 else { throw error("expected digits after the decimal point", at: index) }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            isInteger = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("expected digits in the exponent", at: index) }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let number = Int64(text) { return .integer(number) }
        guard let number = Double(text) else { throw error("a number is out of range", at: start) }
        return .real(number)
    }
}
