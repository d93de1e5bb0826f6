import BibModel
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// HTTP dates (`Sun, 06 Nov 1994 08:49:37 GMT`), read by hand: a listing of a thousand files
/// has a thousand of them.
enum HTTPDate {
    private static let months = ["Jan": 1, "Feb": 2, "Mar": 3, "Apr": 4, "May": 5, "Jun": 6,
                                 "Jul": 7, "Aug": 8, "Sep": 9, "Oct": 10, "Nov": 11, "Dec": 12]

    /// Seconds since 1970 of an HTTP date, or nil when it is not one.
    static func parse(_ text: String) -> Double? {
        // The fixed-length form every server sends (`Sun, 06 Nov 1994 08:49:37 GMT`) is read
        // in place; other spellings go the slow way.
        var text = text
        return text.withUTF8 { bytes -> Double? in
            guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == 0x20, bytes[7] == 0x20, bytes[11] == 0x20,
                  bytes[16] == 0x20, bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"), bytes[25] == 0x20,
                  bytes[26] == UInt8(ascii: "G"), bytes[27] == UInt8(ascii: "M"), bytes[28] == UInt8(ascii: "T"),
                  let day = number(bytes, 5, 2), let year = number(bytes, 12, 4), let hour = number(bytes, 17, 2),
                  let minute = number(bytes, 20, 2), let second = number(bytes, 23, 2),
                  let month = months[String(decoding: UnsafeBufferPointer(rebasing: bytes[8..<11]), as: UTF8.self)]
            else { return nil }
            return timestamp(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        } ?? parseLoosely(text)
    }

    /// Other spellings: a one-digit day, another zone name.
    private static func parseLoosely(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, let day = Int(parts[1]), let month = months[String(parts[2])], let year = Int(parts[3]) else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
        return timestamp(year: year, month: month, day: day, hour: clock[0], minute: clock[1], second: clock[2])
    }

    private static func timestamp(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Double {
        var time = tm()
        time.tm_year = Int32(year - 1900)
        time.tm_mon = Int32(month - 1)
        time.tm_mday = Int32(day)
        time.tm_hour = Int32(hour)
        time.tm_min = Int32(minute)
        time.tm_sec = Int32(second)
        return Double(timegm(&time))
    }

    /// The decimal number of `count` digits at `start`.
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for byte in bytes[start..<(start + count)] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
