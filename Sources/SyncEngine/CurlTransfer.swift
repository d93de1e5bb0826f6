import CCurl
import Foundation

/// A libcurl failure, with curl's own message.
public struct CurlError: Error, Equatable, CustomStringConvertible {
    public let code: Int
    public let message: String

    init(_ code: CURLcode) {
        self.code = Int(code.rawValue)
        self.message = ccurl_easy_strerror(code).map { String(cString: $0) } ?? "unknown error"
    }

    init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "transfer failed: \(message) (curl error \(code))" }
}

/// libcurl, opened and initialised once, on first use.
enum CurlLibrary {
    static func ensureLoaded() throws {
        if let reason = ccurl_load() { throw CurlError(code: -1, message: String(cString: reason)) }
    }
}

/// One libcurl easy handle; freed when the transfer object goes away.
public final class CurlTransfer {
    private let handle: UnsafeMutableRawPointer
    private var body: [UInt8] = []

    /// The libcurl version string, such as `libcurl/7.88.1 OpenSSL/3.0.17`.
    public static var version: String {
        get throws {
            try CurlLibrary.ensureLoaded()
            return ccurl_version().map { String(cString: $0) } ?? "unknown"
        }
    }

    public init() throws {
        try CurlLibrary.ensureLoaded()
        guard let handle = ccurl_easy_init() else {
            throw CurlError(code: -1, message: "cannot initialise libcurl")
        }
        self.handle = handle
    }

    deinit {
        ccurl_easy_cleanup(handle)
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
        try check(ccurl_easy_perform(handle))
        return body
    }

    private func check(_ code: CURLcode) throws {
        guard code == CURLE_OK else { throw CurlError(code) }
    }
}
