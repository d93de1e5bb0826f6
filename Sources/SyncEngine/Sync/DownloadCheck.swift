import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a finished download must be before it counts as the remote's file, whatever else
/// happened while it came (another process writing the same file, a connection closed early):
///
/// - its size is the one the remote gives: the listing's, else the length the server announced
///   for the download (`Content-Range`'s total, or `Content-Length`);
/// - its content hash is the remote's, where the remote gives one (``Transport/verify(_:against:)``);
/// - a PDF whose length nobody gave (no size in the listing, a body that ends when the server
///   closes the connection) must end like a whole PDF (`%%EOF` in its last 1,024 bytes) and
///   pass the caller's `documentCheck` (the reader and the CLI open it with poppler).
struct DownloadCheck {
    let transport: any Transport
    let documentCheck: (@Sendable (String) -> String?)?

    /// How far from the end a PDF's `%%EOF` may be (the PDF reference's allowance).
    static let trailerWindow = 1024

    /// Nil when the download at `path` is whole, else why not (a sentence for the user).
    /// `answer` is the server's status (0 for protocols without one), `headers` its headers.
    func problem(with path: String, remote: RemoteFile, answer: Int, headers: [String: String]) -> String? {
        // A redirect is followed and an error fails the transfer: another answer (a 304 to a
        // request that was not conditional) brought no file.
        if (300..<400).contains(answer) { return "the server answered HTTP \(answer) instead of sending the file" }
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
        if let problem = transport.verify(URL(fileURLWithPath: path, isDirectory: false), against: remote) { return problem }
        guard remote.size == nil && announcedLength == nil, Self.isPDF(path, remotePath: remote.path) else { return nil }
        let unknown = "the server gave no length for it"
        guard Self.endsLikeAPDF(path) else {
            return "\(unknown), and it is not a whole PDF (no %%EOF in its last \(Self.grouped(Int64(Self.trailerWindow))) bytes): "
                + "the connection likely closed early"
        }
        if let documentCheck, let problem = documentCheck(path) {
            return "\(unknown), and it does not open as a PDF: \(problem)"
        }
        return nil
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

    /// Whether the file is a PDF: by its name, or by its first bytes.
    static func isPDF(_ path: String, remotePath: String) -> Bool {
        if remotePath.lowercased().hasSuffix(".pdf") { return true }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 5)).map { Array($0) == Array("%PDF-".utf8) } ?? false
    }

    /// Whether `%%EOF` is among the file's last ``trailerWindow`` bytes.
    static func endsLikeAPDF(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let end = try? handle.seekToEnd() else { return false }
        let start = end > UInt64(trailerWindow) ? end - UInt64(trailerWindow) : 0
        guard (try? handle.seek(toOffset: start)) != nil, let tail = try? handle.readToEnd() else { return false }
        return tail.range(of: Data("%%EOF".utf8)) != nil
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
