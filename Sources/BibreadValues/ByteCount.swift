import Foundation

/// Sizes written for people: `2GB`, `500 MB`, `1.5G`, `800k`.
public enum ByteCount {
    public static func parse(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let number = trimmed.prefix { $0.isNumber || $0 == "." }
        let unit = trimmed.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
        guard let value = Double(number) else { return nil }
        let factors: [String: Double] = ["": 1, "B": 1, "K": 1e3, "KB": 1e3, "M": 1e6, "MB": 1e6, "G": 1e9, "GB": 1e9, "T": 1e12, "TB": 1e12,
                                         "KIB": 1024, "MIB": 1_048_576, "GIB": 1_073_741_824]
        guard let factor = factors[unit] else { return nil }
        return Int64(value * factor)
    }

    /// `1.2 MB`, `340 kB`.
    public static func format(_ bytes: Int64) -> String {
        let value = Double(bytes)
        if value >= 1e9 { return String(format: "%.1f GB", value / 1e9) }
        if value >= 1e6 { return String(format: "%.1f MB", value / 1e6) }
        if value >= 1e3 { return String(format: "%.0f kB", value / 1e3) }
        return "\(bytes) B"
    }
}
