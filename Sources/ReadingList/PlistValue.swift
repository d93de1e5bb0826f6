/// A property-list value as the readers produce it and the writers take it: the common ground
/// of XML plists, binary plists and JSON.
enum PlistValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    /// Seconds since 2001-01-01 00:00:00 UTC, as plists store dates.
    case date(Double)
    case data([UInt8])
    /// A binary plist's UID (keyed archives); never part of a reading list.
    case uid(UInt64)
    /// JSON's `null` or a binary plist's null object.
    case null
    case array([PlistValue])
    case dictionary(PlistDictionary)

    /// How the value is shown in a message: strings quoted (long ones cut to 40 characters),
    /// numbers as written, anything else by its kind ("a dictionary", "an array").
    var display: String {
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

    /// `text` in double quotes, cut to 40 characters with "…", control characters escaped.
    static func quoted(_ text: String, limit: Int = 40) -> String {
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

/// A dictionary that keeps its keys in order (so that writers are deterministic); a key given
/// twice keeps its last value, as Apple's readers do.
struct PlistDictionary: Sendable, Equatable {
    /// One key and its value.
    struct Entry: Sendable, Equatable {
        var key: String
        var value: PlistValue
    }

    private(set) var entries: [Entry]

    init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    /// Appends `value` under `key` (a later duplicate wins on lookup).
    mutating func append(_ key: String, _ value: PlistValue) {
        entries.append(Entry(key: key, value: value))
    }

    /// The value of `key`, the last one when the key is given twice. Keys compare by their
    /// Unicode scalars (not by canonical equivalence), as in Apple's plists.
    subscript(key: String) -> PlistValue? {
        for entry in entries.reversed() where entry.key.unicodeScalars.elementsEqual(key.unicodeScalars) {
            return entry.value
        }
        return nil
    }
}

/// The running count of values a reader has produced, checked against `maxValues`.
struct ValueBudget {
    let limit: Int
    private(set) var used = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts `count` more values, throwing once the total passes the limit.
    mutating func spend(_ count: Int = 1) throws {
        used = used.addingReportingOverflow(count).overflow ? Int.max : used + count
        if used > limit {
            throw ReadingListError.limitExceeded("the list has more than \(limit) values")
        }
    }
}

extension ReadingListError {
    /// The error for raw values nested deeper than a reader allows.
    static func valueNesting(limit: Int) -> ReadingListError {
        .limitExceeded("the list nests values deeper than \(limit) levels")
    }
}
