import Foundation
import PropertyList

/// Splits a `file` field in JabRef's (`label:path:type;...` with `\` escapes), Mendeley's
/// (`:path:pdf`) or Zotero Better BibTeX's (`path;path`) form.
enum FileFieldParser {
    enum Item: Equatable {
        case file(path: String, label: String?, type: String?)
        case url(String)
    }

    static func items(_ raw: String) -> [Item] {
        var result: [Item] = []
        for item in split(raw) {
            let unescaped = item.parts.joined(separator: ":").trimmedASCII
            if unescaped.isEmpty { continue }
            if isURL(unescaped) {
                result.append(.url(unescaped))
                continue
            }
            let parts = item.parts
            switch parts.count {
            case 1:
                result.append(.file(path: parts[0], label: nil, type: nil))
            case 2:
                if isDriveLetter(parts[0]) {
                    result.append(.file(path: parts.joined(separator: ":"), label: nil, type: nil))
                } else if looksLikeFileType(parts[1]) {
                    result.append(.file(path: parts[0], label: nil, type: parts[1]))
                } else {
                    result.append(.file(path: parts[1], label: parts[0].isEmpty ? nil : parts[0], type: nil))
                }
            default:
                let path = parts[1..<(parts.count - 1)].joined(separator: ":")
                let label = parts[0].isEmpty ? nil : parts[0]
                let type = parts[parts.count - 1].isEmpty ? nil : parts[parts.count - 1]
                if isURL(path) {
                    result.append(.url(path))
                } else if !path.isEmpty {
                    result.append(.file(path: path, label: label, type: type))
                }
            }
        }
        return result
    }

    /// Splits at unescaped `;` (between files) and, inside, at unescaped `:`; `\x` stands for
    /// `x`. Byte by byte, as JabRef reads it code unit by code unit: the three are ASCII, so no
    /// byte of a multi-byte character is taken for one.
    private static func split(_ raw: String) -> [(parts: [String], raw: String)] {
        var items: [(parts: [String], raw: String)] = []
        var parts: [String] = []
        var current: [UInt8] = []
        var itemRaw: [UInt8] = []
        var escaped = false
        for byte in raw.utf8 {
            if escaped {
                current.append(byte)
                itemRaw.append(byte)
                escaped = false
                continue
            }
            switch byte {
            case UInt8(ascii: "\\"):
                escaped = true
            case UInt8(ascii: ";"):
                parts.append(String(decoding: current, as: UTF8.self))
                items.append((parts, String(decoding: itemRaw, as: UTF8.self)))
                parts = []
                current.removeAll(keepingCapacity: true)
                itemRaw.removeAll(keepingCapacity: true)
            case UInt8(ascii: ":"):
                parts.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
                itemRaw.append(byte)
            default:
                current.append(byte)
                itemRaw.append(byte)
            }
        }
        parts.append(String(decoding: current, as: UTF8.self))
        items.append((parts, String(decoding: itemRaw, as: UTF8.self)))
        return items.filter { !$0.raw.trimmedASCII.isEmpty }
    }

    private static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("ftp://")
    }

    private static func isDriveLetter(_ text: String) -> Bool {
        text.count == 1 && text.first?.isLetter == true
    }

    private static func looksLikeFileType(_ text: String) -> Bool {
        let trimmed = text.trimmedASCII
        if trimmed.contains("/") { return !trimmed.contains(".") && trimmed.split(separator: "/").count == 2 }
        return !trimmed.isEmpty && trimmed.count <= 12 && trimmed.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
    }
}
