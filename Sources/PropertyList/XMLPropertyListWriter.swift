import Foundation

/// Writes XML property lists the way Apple's tools do: the standard prolog and DTD, one element
/// per line, tabs for indentation, `<array/>` and `<dict/>` when empty, and `&`, `<`, `>`
/// escaped. XML 1.0 cannot carry most control characters, so those (other than tab and line
/// feed) are written as U+FFFD; a carriage return is written `&#13;` so that it survives.
enum XMLPropertyListWriter {
    /// The XML plist for `value`.
    static func write(_ value: PropertyListValue) -> [UInt8] {
        var output = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        append(value, indent: 0, to: &output)
        output += "</plist>\n"
        return Array(output.utf8)
    }

    private static func append(_ value: PropertyListValue, indent: Int, to output: inout String) {
        let tabs = String(repeating: "\t", count: indent)
        switch value {
        case .string(let text):
            output += "\(tabs)<string>\(escape(text))</string>\n"
        case .integer(let number):
            output += "\(tabs)<integer>\(number)</integer>\n"
        case .real(let number):
            output += "\(tabs)<real>\(number)</real>\n"
        case .boolean(let flag):
            output += "\(tabs)<\(flag ? "true" : "false")/>\n"
        case .date(let seconds):
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            output += "\(tabs)<date>\(ISO8601DateFormatter().string(from: date))</date>\n"
        case .data(let bytes):
            output += "\(tabs)<data>\n\(tabs)\(Data(bytes).base64EncodedString())\n\(tabs)</data>\n"
        case .uid(let number):
            output += "\(tabs)<dict>\n\(tabs)\t<key>CF$UID</key>\n\(tabs)\t<integer>\(number)</integer>\n\(tabs)</dict>\n"
        case .null:
            output += "\(tabs)<string></string>\n"
        case .array(let items):
            guard !items.isEmpty else {
                output += "\(tabs)<array/>\n"
                return
            }
            output += "\(tabs)<array>\n"
            for item in items { append(item, indent: indent + 1, to: &output) }
            output += "\(tabs)</array>\n"
        case .dictionary(let dictionary):
            guard !dictionary.entries.isEmpty else {
                output += "\(tabs)<dict/>\n"
                return
            }
            output += "\(tabs)<dict>\n"
            for entry in dictionary.entries {
                output += "\(tabs)\t<key>\(escape(entry.key))</key>\n"
                append(entry.value, indent: indent + 1, to: &output)
            }
            output += "\(tabs)</dict>\n"
        }
    }

    /// `text` with the characters XML reserves escaped and the ones it forbids replaced.
    private static func escape(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\r": result += "&#13;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    result.unicodeScalars.append("\u{FFFD}")
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}
