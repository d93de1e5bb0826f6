import CCurl
import Foundation

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
