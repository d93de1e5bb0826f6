import CCurl
import Foundation

/// A libcurl failure, with curl's own message.
public struct CurlError: Error, Equatable, CustomStringConvertible {
    public let code: Int
    public let message: String

    init(_ code: CURLcode) {
        self.code = Int(code.rawValue)
        self.message = String(cString: curl_easy_strerror(code))
    }

    init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "transfer failed: \(message) (curl error \(code))" }
}

/// Process-wide libcurl setup, done once.
enum CurlGlobal {
    static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
}

/// One libcurl easy handle; freed when the transfer object goes away.
public final class CurlTransfer {
    private let handle: UnsafeMutableRawPointer
    private var body: [UInt8] = []

    /// The libcurl version string, such as `libcurl/7.88.1 OpenSSL/3.0.17`.
    public static var version: String { String(cString: curl_version()) }

    public init() throws {
        guard CurlGlobal.initialized, let handle = curl_easy_init() else {
            throw CurlError(code: -1, message: "cannot initialise libcurl")
        }
        self.handle = handle
    }

    deinit {
        curl_easy_cleanup(handle)
    }

    /// Fetches a URL into memory (a `file://` URL or one on the network); TLS is always verified.
    public func fetch(_ url: String) throws -> [UInt8] {
        body.removeAll()
        try check(ccurl_setopt_string(handle, CURLOPT_URL, url))
        try check(ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1))
        try check(ccurl_setopt_long(handle, CURLOPT_FAILONERROR, 1))
        try check(ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1))
        try check(ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(self).toOpaque()))
        try check(ccurl_setopt_write_function(handle) { data, size, count, context in
            guard let context, let data else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
                transfer.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
            }
            return length
        })
        try check(curl_easy_perform(handle))
        return body
    }

    private func check(_ code: CURLcode) throws {
        guard code == CURLE_OK else { throw CurlError(code) }
    }
}
