import Foundation

/// A time as people here read it: local time, `2026-11-27 01:22:10`.
public enum LocalTimeText {
    /// `seconds` since 1970 as local time.
    public static func of(_ seconds: Double) -> String {
        var time = time_t(seconds)
        var parts = tm()
        localtime_r(&time, &parts)
        var buffer = [Int8](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
