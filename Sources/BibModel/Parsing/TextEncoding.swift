import Foundation

/// The character encodings a .bib file is found in, and how they turn into UTF-8.
public enum TextEncoding: String, Sendable {
    case utf8 = "UTF-8"
    case windows1252 = "Windows-1252"
    case latin1 = "ISO-8859-1"
    case macRoman = "Mac OS Roman"
    case latin9 = "ISO-8859-15"
    case latin2 = "ISO-8859-2"

    /// Reads the encoding a JabRef (`% Encoding: X`), BibDesk
    /// (`%% Saved with string encoding Unicode (UTF-8)`) or Emacs (`-*- coding: latin-1 -*-`)
    /// header declares, if any.
    static func declared(in bytes: UnsafeBufferPointer<UInt8>) -> TextEncoding? {
        let head = String(decoding: UnsafeBufferPointer(rebasing: bytes.prefix(4096)), as: UTF8.self)
        for line in head.split(separator: "\n", maxSplits: 40) {
            let trimmed = line.trimmedASCII
            guard trimmed.hasPrefix("%") else { continue }
            let lower = trimmed.lowercased()
            var name: Substring?
            if let range = lower.range(of: "encoding:") {
                name = lower[range.upperBound...]
            } else if let range = lower.range(of: "saved with string encoding") {
                name = lower[range.upperBound...]
            } else if let range = lower.range(of: "coding:") {
                // Emacs: `-*- coding: latin-1-unix -*-`
                name = lower[range.upperBound...].split(separator: " ").first
            }
            guard let declaredName = name?.trimmedASCII else { continue }
            return TextEncoding(declaredName: declaredName)
        }
        return nil
    }

    init?(declaredName name: String) {
        let compact = name.lowercased().filter { $0.isLetter || $0.isNumber }
        if compact.contains("utf8") || compact.contains("unicode") {
            self = .utf8
        } else if compact.contains("latin9") || compact.contains("885915") {
            self = .latin9
        } else if compact.contains("latin2") || compact.contains("88592") || compact.contains("centraleurop") {
            self = .latin2
        } else if compact.contains("1252") || compact.contains("windowslatin1") {
            self = .windows1252
        } else if compact.contains("88591") || compact.contains("latin1") || compact.contains("isolatin1") {
            self = .latin1
        } else if compact.contains("macroman") || compact.contains("macintosh") || compact.contains("macosroman") {
            self = .macRoman
        } else if compact.contains("ascii") {
            self = .utf8
        } else {
            return nil
        }
    }

    /// Converts text in this (single-byte) encoding to UTF-8.
    func transcodeToUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
                continue
            }
            let scalar: UInt32
            switch self {
            case .utf8, .latin1: scalar = UInt32(byte)
            case .windows1252: scalar = TextEncoding.windows1252High[Int(byte - 0x80)]
            case .macRoman: scalar = TextEncoding.macRomanHigh[Int(byte - 0x80)]
            case .latin9: scalar = TextEncoding.latin9Differences[byte] ?? UInt32(byte)
            case .latin2: scalar = byte < 0xA0 ? UInt32(byte) : TextEncoding.latin2High[Int(byte - 0xA0)]
            }
            TextEncoding.appendUTF8(scalar, to: &output)
        }
        return output
    }

    static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | (scalar >> 6)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | (scalar >> 12)))
            output.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            output.append(UInt8(0xF0 | (scalar >> 18)))
            output.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            output.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    /// Windows-1252 for 0x80...0x9F; the five undefined bytes keep their Latin-1 meaning.
    private static let windows1252High: [UInt32] = {
        var table = (0x80...0xFF).map { UInt32($0) }
        let special: [UInt32] = [
            0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
            0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
        ]
        table.replaceSubrange(0..<32, with: special)
        return table
    }()

    /// ISO-8859-15 differs from Latin-1 in eight places (€, Š, š, Ž, ž, Œ, œ, Ÿ).
    private static let latin9Differences: [UInt8: UInt32] = [
        0xA4: 0x20AC, 0xA6: 0x0160, 0xA8: 0x0161, 0xB4: 0x017D, 0xB8: 0x017E, 0xBC: 0x0152, 0xBD: 0x0153, 0xBE: 0x0178,
    ]

    /// ISO-8859-2 for 0xA0...0xFF.
    private static let latin2High: [UInt32] = [
        0xA0, 0x104, 0x2D8, 0x141, 0xA4, 0x13D, 0x15A, 0xA7, 0xA8, 0x160, 0x15E, 0x164, 0x179, 0xAD, 0x17D, 0x17B,
        0xB0, 0x105, 0x2DB, 0x142, 0xB4, 0x13E, 0x15B, 0x2C7, 0xB8, 0x161, 0x15F, 0x165, 0x17A, 0x2DD, 0x17E, 0x17C,
        0x154, 0xC1, 0xC2, 0x102, 0xC4, 0x139, 0x106, 0xC7, 0x10C, 0xC9, 0x118, 0xCB, 0x11A, 0xCD, 0xCE, 0x10E,
        0x110, 0x143, 0x147, 0xD3, 0xD4, 0x150, 0xD6, 0xD7, 0x158, 0x16E, 0xDA, 0x170, 0xDC, 0xDD, 0x162, 0xDF,
        0x155, 0xE1, 0xE2, 0x103, 0xE4, 0x13A, 0x107, 0xE7, 0x10D, 0xE9, 0x119, 0xEB, 0x11B, 0xED, 0xEE, 0x10F,
        0x111, 0x144, 0x148, 0xF3, 0xF4, 0x151, 0xF6, 0xF7, 0x159, 0x16F, 0xFA, 0x171, 0xFC, 0xFD, 0x163, 0x2D9,
    ]

    private static let macRomanHigh: [UInt32] = [
        0xC4, 0xC5, 0xC7, 0xC9, 0xD1, 0xD6, 0xDC, 0xE1, 0xE0, 0xE2, 0xE4, 0xE3, 0xE5, 0xE7, 0xE9, 0xE8,
        0xEA, 0xEB, 0xED, 0xEC, 0xEE, 0xEF, 0xF1, 0xF3, 0xF2, 0xF4, 0xF6, 0xF5, 0xFA, 0xF9, 0xFB, 0xFC,
        0x2020, 0xB0, 0xA2, 0xA3, 0xA7, 0x2022, 0xB6, 0xDF, 0xAE, 0xA9, 0x2122, 0xB4, 0xA8, 0x2260, 0xC6, 0xD8,
        0x221E, 0xB1, 0x2264, 0x2265, 0xA5, 0xB5, 0x2202, 0x2211, 0x220F, 0x3C0, 0x222B, 0xAA, 0xBA, 0x3A9, 0xE6, 0xF8,
        0xBF, 0xA1, 0xAC, 0x221A, 0x192, 0x2248, 0x2206, 0xAB, 0xBB, 0x2026, 0xA0, 0xC0, 0xC3, 0xD5, 0x152, 0x153,
        0x2013, 0x2014, 0x201C, 0x201D, 0x2018, 0x2019, 0xF7, 0x25CA, 0xFF, 0x178, 0x2044, 0x20AC, 0x2039, 0x203A, 0xFB01, 0xFB02,
        0x2021, 0xB7, 0x201A, 0x201E, 0x2030, 0xC2, 0xCA, 0xC1, 0xCB, 0xC8, 0xCD, 0xCE, 0xCF, 0xCC, 0xD3, 0xD4,
        0xF8FF, 0xD2, 0xDA, 0xDB, 0xD9, 0x131, 0x2C6, 0x2DC, 0xAF, 0x2D8, 0x2D9, 0x2DA, 0xB8, 0x2DD, 0x2DB, 0x2C7,
    ]
}
