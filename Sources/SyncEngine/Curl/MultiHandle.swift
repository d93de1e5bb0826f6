import CCurl
import Foundation

/// One libcurl multi handle: runs several easy handles at once on the calling thread; freed in
/// `deinit`.
final class MultiHandle {
    private let raw: UnsafeMutableRawPointer

    /// A new multi handle; libcurl must be loaded.
    init() throws {
        guard let raw = ccurl_multi_init() else {
            throw TransferFailure.curl(code: Int(CURLE_FAILED_INIT.rawValue), message: "cannot create a curl multi handle")
        }
        self.raw = raw
    }

    deinit {
        _ = ccurl_multi_cleanup(raw)
    }

    /// Starts running `handle` with the others.
    func add(_ handle: EasyHandle) throws {
        try check(ccurl_multi_add_handle(raw, handle.raw))
    }

    /// Stops running `handle` (finished or not); it may then be reused or freed.
    func remove(_ handle: EasyHandle) {
        _ = ccurl_multi_remove_handle(raw, handle.raw)
    }

    /// Moves every transfer on as far as it can go without waiting.
    func perform() throws {
        var running: Int32 = 0
        try check(ccurl_multi_perform(raw, &running))
    }

    /// Waits until a transfer's socket is ready, a curl timer is due, or `milliseconds` pass.
    func wait(milliseconds: Int32) throws {
        var ready: Int32 = 0
        try check(ccurl_multi_poll(raw, milliseconds, &ready))
    }

    /// The next finished transfer: its `CURL *` and result, or nil when none is waiting.
    func nextFinished() -> (handle: UnsafeMutableRawPointer, result: CURLcode)? {
        var handle: UnsafeMutableRawPointer?
        var result = CURLE_OK
        guard ccurl_multi_next_done(raw, &handle, &result) != 0, let handle else { return nil }
        return (handle, result)
    }

    private func check(_ code: CURLMcode) throws {
        guard code != CURLM_OK else { return }
        let curlCode = code == CURLM_OUT_OF_MEMORY ? CURLE_OUT_OF_MEMORY : CURLE_FAILED_INIT
        throw TransferFailure.curl(code: Int(curlCode.rawValue), message: "curl multi: \(CurlLibrary.describe(code))")
    }
}
