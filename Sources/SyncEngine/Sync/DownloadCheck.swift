import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a finished download must be before it counts as the remote's file, whatever else
/// happened while it came (another process writing the same file, a connection closed early):
///
/// - its size is the one the remote gives: the listing's, else the length the server announced
///   for the download (`Content-Range`'s total, or `Content-Length`);
/// - its content hash is the remote's, where the remote gives one (``Transport/verify(_:against:)``).
struct DownloadCheck {
    let transport: any Transport

    /// Nil when the download at `path` is whole, else why not (a sentence for the user).
    /// `answer` is the server's status (0 for protocols without one), `headers` its headers.
    func problem(with path: String, remote: RemoteFile, answer: Int, headers: [String: String]) -> String? {
        let announcedLength = Self.announcedLength(status: answer, headers: headers)
        var status = stat()
        guard lstat(path, &status) == 0 else { return "the download is not there (\(String(cString: strerror(errno))))" }
        let size = Int64(status.st_size)
        if let listed = remote.size, size != listed {
            return "the download has \(Self.grouped(size)) bytes where the remote lists \(Self.grouped(listed))"
        }
        if remote.size == nil, let announcedLength, size != announcedLength {
            return "the download has \(Self.grouped(size)) bytes where the server announced \(Self.grouped(announcedLength))"
        }
        return transport.verify(URL(fileURLWithPath: path, isDirectory: false), against: remote)
    }

    /// The length the server announced for a finished download, from its answer's headers:
    /// the total of `Content-Range` (a resumed download, or a 416 to a complete one), else
    /// `Content-Length` of a 200; nil when it gave none (a body that ends when the connection
    /// closes), and for protocols without headers (their listing gives the size).
    static func announcedLength(status: Int, headers: [String: String]) -> Int64? {
        if let range = headers["content-range"], let slash = range.lastIndex(of: "/"),
           let total = Int64(range[range.index(after: slash)...].trimmingCharacters(in: .whitespaces)) {
            return total
        }
        guard status == 200, let length = headers["content-length"] else { return nil }
        return Int64(length.trimmingCharacters(in: .whitespaces))
    }

    /// `1234567` as `1,234,567`.
    static func grouped(_ number: Int64) -> String {
        let digits = Array(String(number.magnitude))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return (number < 0 ? "-" : "") + text
    }
}
