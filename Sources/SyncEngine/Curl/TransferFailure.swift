import BibModel
import Foundation

/// Why a transfer failed.
public enum TransferFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// libcurl failed: `code` is the `CURLcode` (7 connection refused, 28 timeout or stall,
    /// 18 partial file, 67 login denied, 60 unknown or changed host key…), `message` curl's
    /// explanation. It never holds a password; URLs in it have no user name or password.
    case curl(code: Int, message: String)
    /// The server answered with an HTTP error (400 or more); `body` is the start of its answer,
    /// `retryAfter` the wait in seconds its `Retry-After` header asks for (a busy server's 429 or
    /// 503). Only ``CurlSession/download(_:parallel:progress:isCancelled:)`` reports these:
    /// ``CurlSession/perform(_:)`` returns the response.
    case http(status: Int, body: String, retryAfter: Double? = nil)
    /// The body could not be written to `path` (disk full, I/O error, missing folder);
    /// `reason` is the system's message.
    case write(path: String, reason: String)
    /// The caller cancelled the transfer.
    case cancelled
    /// The answer was larger than the caller allows (``CurlSession/fetch(_:limit:progress:isCancelled:)``).
    case tooLarge(limit: Int64)
    /// Another transfer (of this process or another) is writing the destination file at
    /// `path`, or changed the partial file this one was to resume; `reason` says which.
    case interference(path: String, reason: String)
    /// The program that carries a remote's transfers (rclone) failed: `message` is its own
    /// explanation, already cleaned of control characters and of anything that looks like a
    /// credential (``RcloneMessage``); `transient` says whether trying again may succeed.
    case program(name: String, message: String, transient: Bool)

    /// Whether trying again later may succeed: timeouts and stalls, refused, reset or dropped
    /// connections, unresolved hosts, cut-off bodies, HTTP 408, 429, 500, 502, 503, 504, and a
    /// destination another transfer is writing or changed, and a program's failure it calls passing.
    public var isTransient: Bool {
        switch self {
        case .curl(let code, _): Self.transientCurlCodes.contains(code)
        case .http(let status, _, _): [408, 429, 500, 502, 503, 504].contains(status)
        case .write, .cancelled, .tooLarge: false
        case .interference: true
        case .program(_, _, let transient): transient
        }
    }

    /// The wait a busy server asked for before the next request (`Retry-After`), in seconds.
    public var retryAfter: Double? {
        if case .http(_, _, let retryAfter) = self { return retryAfter }
        return nil
    }

    /// What went wrong, as one line for a message. What came from the server (an error page,
    /// a URL in curl's message) is cleaned of control characters (`TerminalText`).
    public var description: String {
        switch self {
        case .curl(let code, let message): "\(TerminalText.cleanedLine(message)) (curl error \(code))"
        case .http(let status, let body, let retryAfter):
            (Self.summary(of: body).map { "HTTP \(status): \($0)" } ?? "HTTP \(status)")
                + (retryAfter.map { "; it asks to be asked again in \(RetryAfter.describe($0))" } ?? "")
        case .write(let path, let reason): "cannot write \(TerminalText.cleanedLine(path)): \(reason)"
        case .cancelled: "cancelled"
        case .tooLarge(let limit): "the answer is larger than the \(ByteLimit.describe(limit)) allowed"
        case .interference(let path, let reason): "cannot write \(path): \(reason)"
        case .program(let name, let message, _): "\(name): \(TerminalText.cleanedLine(message))"
        }
    }

    /// CURLE_COULDNT_RESOLVE_PROXY (5), _HOST (6), _CONNECT (7), HTTP2 (16), PARTIAL_FILE (18),
    /// OPERATION_TIMEDOUT (28), SSL_CONNECT_ERROR (35), GOT_NOTHING (52), SEND_ERROR (55),
    /// RECV_ERROR (56), HTTP2_STREAM (92), HTTP3 (95).
    private static let transientCurlCodes: Set<Int> = [5, 6, 7, 16, 18, 28, 35, 52, 55, 56, 92, 95]

    /// The first line of an error page that is not blank, at most 200 characters, cleaned of
    /// control characters (an error page may try to clear the screen or set the window title);
    /// nil when the page is blank.
    private static func summary(of body: String) -> String? {
        guard let line = body.split(whereSeparator: \.isNewline).first(where: { !$0.allSatisfy(\.isWhitespace) }) else {
            return nil
        }
        let cleaned = TerminalText.cleanedLine(String(line.prefix(201)))
        return cleaned.count > 200 ? String(cleaned.prefix(200)) + "…" : cleaned
    }
}
