import Foundation
import ReadingList

/// Reading lists: decoding any format, and links; what decodes must re-encode stably.
enum ReadingListFuzzing {
    static func list(_ bytes: [UInt8]) throws {
        guard let decoded = try? ReadingListCoder.decode(bytes) else { return }
        try checkRoundTrip(decoded.list)
    }

    /// The first byte picks the mode: link text as given, or the rest as a link's payload.
    static func link(_ bytes: [UInt8]) throws {
        let content: BookmarkLink.Content?
        if let first = bytes.first, first & 1 == 1 {
            let payload = Array(bytes.dropFirst())
            content = try? BookmarkLink.parse("bibread://bookmarks?" + Data(payload).base64EncodedString())
        } else {
            content = try? BookmarkLink.parse(String(decoding: bytes, as: UTF8.self))
        }
        guard case .list(let decoded) = content else { return }
        try checkRoundTrip(decoded.list)
        let again = try BookmarkLink.parse(BookmarkLink.make(decoded.list))
        guard case .list(let redecoded) = again else {
            throw InvariantViolation("a made link reads back as a download link")
        }
        try check(ReadingListCoder.encode(redecoded.list, as: .json) == ReadingListCoder.encode(decoded.list, as: .json),
                  "a list made into a link reads back different")
    }

    /// Each format writes `list` so that it reads back and writes the same again.
    static func checkRoundTrip(_ list: ReadingList) throws {
        for format in ReadingListFormat.allCases {
            let written = ReadingListCoder.encode(list, as: format)
            let reread: DecodedReadingList
            do {
                reread = try ReadingListCoder.decode(written)
            } catch {
                throw InvariantViolation("a list written as \(format) does not read back: \(error)")
            }
            try check(ReadingListCoder.encode(reread.list, as: format) == written,
                      "a list written as \(format) reads back different")
        }
    }
}
