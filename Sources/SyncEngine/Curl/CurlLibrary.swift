import CCurl
import Foundation

/// A libcurl failure, with curl's own message (the error type of ``CurlTransfer``).
public struct CurlError: Error, Equatable, CustomStringConvertible {
    /// The `CURLcode`, or -1 when libcurl itself cannot be used.
    public let code: Int
    /// curl's explanation.
    public let message: String

    init(_ code: CURLcode) {
        self.code = Int(code.rawValue)
        self.message = CurlLibrary.describe(code)
    }

    init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "transfer failed: \(message) (curl error \(code))" }
}

/// libcurl, opened and initialised once, on first use.
enum CurlLibrary {
    /// Why libcurl cannot be used, or nil once it is loaded and initialised.
    static var loadFailure: String? {
        ccurl_load().map { String(cString: $0) }
    }

    /// Loads libcurl, throwing ``CurlError`` when it cannot be used.
    static func ensureLoaded() throws {
        if let reason = loadFailure { throw CurlError(code: -1, message: reason) }
    }

    /// curl's one-line description of a result code.
    static func describe(_ code: CURLcode) -> String {
        ccurl_easy_strerror(code).map { String(cString: $0) } ?? "unknown error"
    }

    /// curl's one-line description of a multi-interface result code.
    static func describe(_ code: CURLMcode) -> String {
        ccurl_multi_strerror(code).map { String(cString: $0) } ?? "unknown multi error"
    }
}
