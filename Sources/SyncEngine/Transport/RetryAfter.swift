import Foundation

/// An HTTP `Retry-After` header (RFC 9110, section 10.2.3): how long a busy server (429, 503)
/// asks a client to wait before its next request.
public enum RetryAfter {
    /// The wait the header asks for, in seconds from `now`: a number of seconds, or an HTTP date
    /// (a date already past is no wait). Nil when there is no header or it is neither.
    public static func seconds(_ header: String?, now: Double = Date().timeIntervalSince1970) -> Double? {
        guard let text = header?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Any number of digits: one too long for an Int is a very long wait all the same.
            return Double(text) ?? .greatestFiniteMagnitude
        }
        return HTTPDate.parse(text).map { max(0, $0 - now) }
    }

    /// A wait for messages: `2 s`, `5 min`, `1 h`, `3 d`.
    public static func describe(_ seconds: Double) -> String {
        switch seconds {
        case ..<90: return "\(Int(seconds.rounded(.up))) s"
        case ..<3600: return "\(Int((seconds / 60).rounded())) min"
        case ..<172_800: return "\(Int((seconds / 3600).rounded())) h"
        default: return seconds >= 1e12 ? "a very long time" : "\(Int((seconds / 86400).rounded())) d"
        }
    }
}
