import CCurl
import Foundation

/// The entry point to libcurl for every transport: single requests answered in memory, and
/// batches of downloads into files.
///
/// Protocols are limited to `file`, `http`, `https` and `sftp` (redirects to `http` and
/// `https` only), TLS certificates and host names are always verified, and every failure is a
/// ``TransferFailure``. ``perform(_:)`` may be called from several threads at once; its
/// handles, with their open connections, are kept for the next request with the same
/// credentials (an sftp login, a TLS session, an HTTP keep-alive connection).
public final class CurlSession: Sendable {
    private let idleHandles = HandlePool()

    /// Loads libcurl (once per process), throwing ``TransferFailure/curl(code:message:)`` with
    /// code 2 when it cannot be used.
    public init() throws {
        if let reason = CurlLibrary.loadFailure {
            throw TransferFailure.curl(code: Int(CURLE_FAILED_INIT.rawValue), message: reason)
        }
    }

    /// One request with its answer in memory (listings, API calls).
    ///
    /// HTTP statuses of 400 and more are returned, not thrown; transport failures throw
    /// ``TransferFailure/curl(code:message:)``.
    public func perform(_ request: TransferRequest) throws -> TransferResponse {
        let handle = try idleHandles.take(for: request.credentials) ?? EasyHandle()
        defer {
            handle.reset()
            idleHandles.give(back: handle, usedWith: request.credentials)
        }
        try handle.configure(for: request)
        var body: [UInt8] = []
        handle.bodyHandler = { chunk in
            body.append(contentsOf: chunk)
            return true
        }
        let code = handle.perform()
        guard code == CURLE_OK else { throw handle.failure(for: code) }
        return TransferResponse(status: handle.status, headers: handle.responseHeaders, body: body,
                                modificationDate: handle.modificationDate)
    }

    /// Downloads a small file into memory (a reading list, a link's target): at most `limit`
    /// bytes, reporting bytes so far and the size the server announced, stopped when
    /// `isCancelled` says so.
    ///
    /// Throws ``TransferFailure/tooLarge(limit:)`` as soon as the announced size or the bytes
    /// received pass `limit`, ``TransferFailure/http(status:body:)`` for an HTTP error, and
    /// ``TransferFailure/cancelled`` when cancelled.
    public func fetch(_ request: TransferRequest, limit: Int64,
                      progress: @escaping (_ bytes: Int64, _ total: Int64?) -> Void = { _, _ in },
                      isCancelled: @escaping () -> Bool = { false }) throws -> TransferResponse {
        let handle = try EasyHandle()
        try handle.configure(for: request)
        var body: [UInt8] = []
        var tooLarge = false
        var cancelled = false
        handle.bodyHandler = { chunk in
            let announced = handle.responseHeaders["content-length"].flatMap { Int64($0) }
            if Int64(body.count + chunk.count) > limit || (announced ?? 0) > limit {
                tooLarge = true
                return false
            }
            body.append(contentsOf: chunk)
            progress(Int64(body.count), announced)
            return true
        }
        handle.progressHandler = {
            if isCancelled() {
                cancelled = true
                return false
            }
            return true
        }
        let code = handle.perform()
        if tooLarge { throw TransferFailure.tooLarge(limit: limit) }
        if cancelled { throw TransferFailure.cancelled }
        guard code == CURLE_OK else { throw handle.failure(for: code) }
        if handle.status >= 400 {
            throw TransferFailure.http(status: handle.status, body: String(decoding: body.prefix(2048), as: UTF8.self))
        }
        return TransferResponse(status: handle.status, headers: handle.responseHeaders, body: body,
                                modificationDate: handle.modificationDate)
    }
}
