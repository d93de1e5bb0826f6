import Foundation
import PropertyList

/// Writes the JSON form of a plist value: UTF-8, two-space indentation, keys in the order given
/// (so output is stable), and only the escapes JSON requires.
enum JSONWriter {
    /// The JSON text for `value`, ending with a newline.
    static func write(_ value: PropertyListValue) -> [UInt8] {
        var output = ""
        append(value, indent: 0, to: &output)
        output += "\n"
        return Array(output.utf8)
    }

    private static func append(_ value: PropertyListValue, indent: Int, to output: inout String) {
        switch value {
        case .string(let text):
            appendString(text, to: &output)
        case .integer(let number):
            output += String(number)
        case .real(let number):
            output += number.isFinite ? String(number) : "null"
        case .boolean(let flag):
            output += flag ? "true" : "false"
        case .date(let seconds):
            appendString(ISO8601DateFormatter().string(from: Date(timeIntervalSinceReferenceDate: seconds)), to: &output)
        case .data(let bytes):
            appendString(Data(bytes).base64EncodedString(), to: &output)
        case .uid(let number):
            output += String(number)
        case .null:
            output += "null"
        case .array(let items):
            guard !items.isEmpty else {
                output += "[]"
                return
            }
            let inner = String(repeating: "  ", count: indent + 1)
            output += "[\n"
            for (index, item) in items.enumerated() {
                output += inner
                append(item, indent: indent + 1, to: &output)
                output += index == items.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: "  ", count: indent) + "]"
        case .dictionary(let dictionary):
            guard !dictionary.entries.isEmpty else {
                output += "{}"
                return
            }
            let inner = String(repeating: "  ", count: indent + 1)
            output += "{\n"
            for (index, entry) in dictionary.entries.enumerated() {
                output += inner
                appendString(entry.key, to: &output)
                output += ": "
                append(entry.value, indent: indent + 1, to: &output)
                output += index == dictionary.entries.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: "  ", count: indent) + "}"
        }
    }

    private static func appendString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
