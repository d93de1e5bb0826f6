import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One entry of `rclone lsjson`: `{"Path":…,"Name":…,"Size":…,"ModTime":"2026-…Z","IsDir":…,"Hashes":{…}}`.
struct RcloneListing: Decodable {
    var name: String
    var size: Int64
    /// RFC 3339 with up to nine digits of a second, in UTC or with an offset.
    var modTime: String?
    var isDir: Bool
    var hashes: [String: String]?

    enum CodingKeys: String, CodingKey {
        case name = "Name", size = "Size", modTime = "ModTime", isDir = "IsDir", hashes = "Hashes"
    }

    /// The entries of an `lsjson` answer (an array), or of `lsjson --stat` (one object).
    static func decode(_ bytes: [UInt8], single: Bool) throws -> [RcloneListing] {
        do {
            let decoder = JSONDecoder()
            return single ? [try decoder.decode(RcloneListing.self, from: Data(bytes))]
                          : try decoder.decode([RcloneListing].self, from: Data(bytes))
        } catch {
            throw RemoteError.badListing("rclone's listing is not the JSON it writes (\(bytes.count) bytes)")
        }
    }

    /// This entry as a file or folder at `path`: its version is the hash rclone gave, else its
    /// size and modification time (to the nanosecond where the backend keeps them), which is
    /// independent of the time zone rclone printed it in.
    func remoteFile(at path: String) -> RemoteFile {
        let time = modTime.flatMap(Self.instant)
        let hash = hashes?.sorted { $0.key < $1.key }.first { !$0.value.isEmpty }
        let version: String? = isDir ? nil : hash.map { "\($0.key):\($0.value) size:\(size)" }
            ?? time.map { "\(size)-\($0.seconds).\(String(format: "%09d", $0.nanoseconds))" }
        let modified = time.map { Double($0.seconds) + Double($0.nanoseconds) / 1e9 }
        return RemoteFile(path: path, size: isDir ? nil : size, version: version, modified: modified, isFolder: isDir)
    }

    /// Seconds since 1970 and nanoseconds of an RFC 3339 time (`2026-11-27T06:44:59.767536831Z`,
    /// `…+01:00`); nil when it is not one.
    static func instant(_ text: String) -> (seconds: Int, nanoseconds: Int)? {
        let bytes = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[from..<(from + count)] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes.count >= 20, let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2) else { return nil }
        var index = 19
        var nanoseconds = 0
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, let digit = number(index, 1) {
                if digits < 9 { nanoseconds = nanoseconds * 10 + digit }
                digits += 1
                index += 1
            }
            for _ in digits..<max(digits, 9) { nanoseconds *= 10 }
        }
        var offset = 0
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"): break
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard let hours = number(index + 1, 2), let minutes = number(index + 4, 2) else { return nil }
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
        default: return nil
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return (Int(timegm(&parts)) - offset, nanoseconds)
    }
}
