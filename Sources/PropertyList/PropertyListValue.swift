/// A property-list value, as the readers produce it and the writers take it: XML and binary
/// property lists (with the `UID` type of keyed archives), and the JSON of the same shape.
public enum PropertyListValue: Sendable, Equatable {
    /// A string.
    case string(String)
    /// A whole number; binary plists' 128-bit integers beyond 64 bits are read as reals.
    case integer(Int64)
    /// A floating-point number.
    case real(Double)
    /// `<true/>` or `<false/>`.
    case boolean(Bool)
    /// Seconds since 2001-01-01 00:00:00 UTC, as property lists store dates.
    case date(Double)
    /// Raw bytes.
    case data([UInt8])
    /// A binary plist's UID: an index into a keyed archive's `$objects`.
    case uid(UInt64)
    /// JSON's `null` or a binary plist's null object.
    case null
    /// An ordered list of values.
    case array([PropertyListValue])
    /// Keys and values, in the order written.
    case dictionary(PropertyListDictionary)

    /// The text of a `.string`, else nil.
    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The items of an `.array`, else nil.
    public var array: [PropertyListValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The entries of a `.dictionary`, else nil.
    public var dictionary: PropertyListDictionary? {
        if case .dictionary(let dictionary) = self { return dictionary }
        return nil
    }

    /// The value under `key` when this is a dictionary (the last one for a repeated key).
    public subscript(key: String) -> PropertyListValue? {
        dictionary?[key]
    }

    /// How the value is named in a message: strings quoted (long ones cut to 40 characters),
    /// numbers as written, anything else by its kind ("a dictionary", "an array").
    public var summary: String {
        switch self {
        case .string(let text): return Self.quoted(text)
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .boolean: return "a boolean"
        case .date: return "a date"
        case .data: return "data"
        case .uid: return "a UID"
        case .null: return "null"
        case .array: return "an array"
        case .dictionary: return "a dictionary"
        }
    }

    /// `text` in double quotes for a message, cut to `limit` characters with "…", with quotes,
    /// backslashes and control characters escaped.
    public static func quoted(_ text: String, limit: Int = 40) -> String {
        var shown = ""
        var count = 0
        for character in text {
            if count == limit {
                shown += "…"
                break
            }
            switch character {
            case "\"": shown += "\\\""
            case "\\": shown += "\\\\"
            case "\n": shown += "\\n"
            case "\r": shown += "\\r"
            case "\t": shown += "\\t"
            default:
                if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
                   scalar.value < 0x20 || scalar.value == 0x7F {
                    shown += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    shown.append(character)
                }
            }
            count += 1
        }
        return "\"\(shown)\""
    }
}
