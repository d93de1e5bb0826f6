import CCurl
import Foundation

/// Fetches one URL into memory; the first, simplest client of libcurl.
///
/// New code uses ``CurlSession``, which this wraps: the same protocols (file, http, https, sftp),
/// always-verified TLS and typed failures.
public final class CurlTransfer {
    private let session: CurlSession

    /// The libcurl version string, such as `libcurl/7.88.1 OpenSSL/3.0.17`.
    public static var version: String {
        get throws {
            try CurlLibrary.ensureLoaded()
            return ccurl_version().map { String(cString: $0) } ?? "unknown"
        }
    }

    /// Loads libcurl, throwing ``CurlError`` when it cannot be used.
    public init() throws {
        try CurlLibrary.ensureLoaded()
        do {
            session = try CurlSession()
        } catch let failure as TransferFailure {
            throw CurlError(failure)
        }
    }

    /// Fetches a URL into memory (a `file://` URL or one on the network); TLS is always verified.
    ///
    /// An HTTP status of 400 or more is an error (curl's code 22, as with `--fail`).
    public func fetch(_ url: String) throws -> [UInt8] {
        let response: TransferResponse
        do {
            response = try session.perform(TransferRequest(url: url))
        } catch let failure as TransferFailure {
            throw CurlError(failure)
        }
        guard response.status < 400 else {
            throw CurlError(code: Int(CURLE_HTTP_RETURNED_ERROR.rawValue),
                            message: "The requested URL returned error: \(response.status)")
        }
        return response.body
    }
}

extension CurlError {
    /// The same failure in ``CurlTransfer``'s terms.
    init(_ failure: TransferFailure) {
        switch failure {
        case .curl(let code, let message): self.init(code: code, message: message)
        case .http(let status, _, _):
            self.init(code: Int(CURLE_HTTP_RETURNED_ERROR.rawValue),
                      message: "The requested URL returned error: \(status)")
        case .write(let path, let reason):
            self.init(code: Int(CURLE_WRITE_ERROR.rawValue), message: "cannot write \(path): \(reason)")
        case .cancelled:
            self.init(code: Int(CURLE_ABORTED_BY_CALLBACK.rawValue), message: "cancelled")
        case .tooLarge:
            self.init(code: Int(CURLE_FILESIZE_EXCEEDED.rawValue), message: failure.description)
        case .interference:
            self.init(code: Int(CURLE_WRITE_ERROR.rawValue), message: failure.description)
        case .program:
            self.init(code: Int(CURLE_RECV_ERROR.rawValue), message: failure.description)
        }
    }
}
