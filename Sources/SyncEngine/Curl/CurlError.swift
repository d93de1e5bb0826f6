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
