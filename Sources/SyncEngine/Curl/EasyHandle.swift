import CCurl
import Foundation

/// One libcurl easy handle, with the error buffer and header list libcurl reads; all freed in
/// `deinit`.
///
/// libcurl's callbacks reach the handle through an unretained `Unmanaged` pointer, and from it
/// the closures its owner set. A handle runs one transfer at a time, on one thread at a time.
final class EasyHandle {
    /// The `CURL *`.
    let raw: UnsafeMutableRawPointer
    /// Where curl writes its message about a failure.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// The request's headers, owned here until the handle is reset.
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// The request's SFTP quote commands, owned here until the handle is reset.
    private var quoteList: UnsafeMutablePointer<curl_slist>?
    /// The request being run.
    private(set) var request = TransferRequest(url: "")
    /// Whether the request speaks HTTP (redirects only ever lead to http or https).
    private(set) var isHTTP = false
    /// The last answer's headers, names lower-cased.
    private(set) var responseHeaders: [String: String] = [:]

    /// Takes each piece of the body; returns false to fail the transfer (curl error 23).
    var bodyHandler: ((UnsafeRawBufferPointer) -> Bool)?
    /// Called while the transfer runs, several times a second; returns false to abort it (curl
    /// error 42).
    var progressHandler: (() -> Bool)?

    /// A fresh handle; libcurl must be loaded.
    init() throws {
        guard let raw = ccurl_easy_init() else {
            throw TransferFailure.curl(code: Int(CURLE_FAILED_INIT.rawValue), message: "cannot create a curl handle")
        }
        self.raw = raw
        errorBuffer = .allocate(capacity: Int(ccurl_error_size))
        errorBuffer.initialize(repeating: 0, count: Int(ccurl_error_size))
    }

    deinit {
        ccurl_easy_cleanup(raw)
        if let headerList { ccurl_slist_free_all(headerList) }
        if let quoteList { ccurl_slist_free_all(quoteList) }
        errorBuffer.deallocate()
    }

    /// Forgets the last request's options, closures and headers; keeps live connections.
    func reset() {
        ccurl_easy_reset(raw)
        if let headerList { ccurl_slist_free_all(headerList) }
        headerList = nil
        if let quoteList { ccurl_slist_free_all(quoteList) }
        quoteList = nil
        bodyHandler = nil
        progressHandler = nil
        responseHeaders = [:]
        request = TransferRequest(url: "")
    }

    // MARK: Configuration

    /// Sets every option for `request`: the protocols allowed, TLS checks, timeouts, method and
    /// body, headers, credentials, resume offset and the callbacks.
    /// Bytes curl reads from the network at a time.
    static let receiveBufferSize = 256 * 1024

    func configure(for request: TransferRequest) throws {
        self.request = request
        let scheme = request.url.prefix { $0 != ":" }.lowercased()
        isHTTP = scheme == "http" || scheme == "https"
        responseHeaders = [:]
        errorBuffer[0] = 0
        guard !request.url.utf8.contains(0) else { throw Self.badArgument("the URL holds a NUL byte") }

        try set(CURLOPT_ERRORBUFFER, pointer: errorBuffer)
        try set(CURLOPT_URL, request.url)
        try set(CURLOPT_PROTOCOLS_STR, "file,http,https,sftp")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_FOLLOWLOCATION, 1)
        try set(CURLOPT_MAXREDIRS, 10)
        try set(CURLOPT_SSL_VERIFYPEER, 1)
        try set(CURLOPT_SSL_VERIFYHOST, 2)
        // Threads: no SIGALRM for DNS timeouts (the threaded resolver is used).
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_TCP_KEEPALIVE, 1)
        try set(CURLOPT_FILETIME, 1)
        try set(CURLOPT_USERAGENT, "bibread (libcurl)")
        // Bodies reach the file in pieces of up to 256 kB rather than curl's default 16 kB: a
        // sixteenth of the write calls and callbacks on a fast link (the curl tool uses 100 kB).
        // Only a hint: libcurl refuses to resize the buffer of a handle whose last transfer
        // failed early (43), and the transfer then works with the buffer it has.
        _ = ccurl_setopt_long(raw, CURLOPT_BUFFERSIZE, Self.receiveBufferSize)
        try configureTimeouts(for: request)
        try configureMethod(for: request)
        try configureHeaders(for: request)
        try configureQuote(for: request)
        try configureCredentials(request.credentials)
        // Over HTTP, resuming is a Range header (see configureHeaders).
        if request.resumeFrom > 0 && !isHTTP {
            try check(ccurl_setopt_offset(raw, CURLOPT_RESUME_FROM_LARGE, curl_off_t(request.resumeFrom)))
        }
        try configureCallbacks()
    }

    private func configureTimeouts(for request: TransferRequest) throws {
        if request.connectTimeout > 0 {
            try set(CURLOPT_CONNECTTIMEOUT_MS, Self.clampedLong((request.connectTimeout * 1000).rounded(.up)))
        }
        if request.stallTimeout > 0 {
            try set(CURLOPT_LOW_SPEED_LIMIT, 1)
            try set(CURLOPT_LOW_SPEED_TIME, max(1, Self.clampedLong(request.stallTimeout.rounded(.up))))
        }
    }

    private func configureMethod(for request: TransferRequest) throws {
        let method = request.method.uppercased()
        guard !method.isEmpty, method.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-" || $0 == "_") }) else {
            throw Self.badArgument("'\(request.method)' is not an HTTP method")
        }
        switch (method, request.body) {
        case ("HEAD", _):
            try set(CURLOPT_NOBODY, 1)
        case ("GET", nil):
            try set(CURLOPT_HTTPGET, 1)
        case ("POST", let body):
            try set(CURLOPT_POST, 1)
            try setBody(body ?? [])
        case (_, let body):
            try set(CURLOPT_CUSTOMREQUEST, request.method)
            if let body { try setBody(body) }
        }
    }

    /// Sends `body` (copied by curl), with its exact length: it may hold NUL bytes.
    private func setBody(_ body: [UInt8]) throws {
        try check(ccurl_setopt_offset(raw, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
        // COPYPOSTFIELDS needs an address even for an empty body.
        let bytes = body.isEmpty ? [0] : body
        try bytes.withUnsafeBytes { buffer in
            try check(ccurl_setopt_pointer(raw, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: buffer.baseAddress)))
        }
    }

    private func configureHeaders(for request: TransferRequest) throws {
        var lines = request.headers
        // Never wait for "100 Continue": send bodies at once.
        if request.body != nil { lines.append("Expect:") }
        // curl's own HTTP resume (CURLOPT_RESUME_FROM, CURLOPT_RANGE) refuses a 200 answer and
        // turns into Content-Range with POST; a plain header works with every method and lets
        // the caller decide what a 200 means. A Range header of the caller's wins.
        if isHTTP && request.resumeFrom > 0 && !lines.contains(where: { $0.lowercased().hasPrefix("range:") }) {
            lines.append("Range: bytes=\(request.resumeFrom)-")
        }
        guard !lines.isEmpty else { return }
        try Self.append(lines, to: &headerList, named: "a header")
        try check(ccurl_setopt_list(raw, CURLOPT_HTTPHEADER, headerList))
    }

    /// The SFTP commands to send before the transfer (`CURLOPT_QUOTE`), for `sftp://` only.
    private func configureQuote(for request: TransferRequest) throws {
        guard !request.quote.isEmpty, request.url.prefix(while: { $0 != ":" }).lowercased() == "sftp" else { return }
        try Self.append(request.quote, to: &quoteList, named: "a quote command")
        try check(ccurl_setopt_list(raw, CURLOPT_QUOTE, quoteList))
    }

    /// Appends `lines` to a curl list, refusing a line that holds a line break or a NUL byte
    /// (`what` names such a line in the message).
    private static func append(_ lines: [String], to list: inout UnsafeMutablePointer<curl_slist>?, named what: String) throws {
        for line in lines {
            guard !line.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else {
                throw badArgument("\(what) holds a line break or a NUL byte")
            }
            guard let longer = ccurl_slist_append(list, line) else {
                throw TransferFailure.curl(code: Int(CURLE_OUT_OF_MEMORY.rawValue), message: "out of memory for \(what)")
            }
            list = longer
        }
    }

    private func configureCredentials(_ credentials: TransferCredentials) throws {
        switch credentials {
        case .none:
            break
        case .netrc:
            try set(CURLOPT_NETRC, ccurl_netrc_optional)
        case .basic(let user, let password):
            try set(CURLOPT_USERNAME, user)
            try set(CURLOPT_PASSWORD, password)
            try set(CURLOPT_HTTPAUTH, ccurl_auth_basic)
            try set(CURLOPT_SSH_AUTH_TYPES, ccurl_ssh_auth_password)
        case .bearer(let token):
            try set(CURLOPT_XOAUTH2_BEARER, token)
            try set(CURLOPT_HTTPAUTH, ccurl_auth_bearer)
        case .ssh(let user, let privateKey, let publicKey, let passphrase, let knownHosts):
            if let user { try set(CURLOPT_USERNAME, user) }
            if let privateKey { try set(CURLOPT_SSH_PRIVATE_KEYFILE, Self.expandingHome(privateKey)) }
            if let publicKey { try set(CURLOPT_SSH_PUBLIC_KEYFILE, Self.expandingHome(publicKey)) }
            if let passphrase { try set(CURLOPT_KEYPASSWD, passphrase) }
            try set(CURLOPT_SSH_KNOWNHOSTS, Self.expandingHome(knownHosts ?? "~/.ssh/known_hosts"))
            try set(CURLOPT_SSH_AUTH_TYPES, ccurl_ssh_auth_key_or_agent)
        }
    }

    private func configureCallbacks() throws {
        let context = Unmanaged.passUnretained(self).toOpaque()
        try set(CURLOPT_WRITEDATA, pointer: context)
        try check(ccurl_setopt_write_function(raw) { data, size, count, context in
            guard let context else { return 0 }
            let handle = Unmanaged<EasyHandle>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            guard length > 0, let data else { return length }
            let accepted = handle.bodyHandler?(UnsafeRawBufferPointer(start: data, count: length)) ?? true
            return accepted ? length : 0
        })
        try set(CURLOPT_HEADERDATA, pointer: context)
        try check(ccurl_setopt_header_function(raw) { data, size, count, context in
            guard let context else { return 0 }
            let handle = Unmanaged<EasyHandle>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            guard length > 0, let data else { return length }
            handle.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: length))
            return length
        })
        try set(CURLOPT_XFERINFODATA, pointer: context)
        try check(ccurl_setopt_progress_function(raw) { context, _, _, _, _ in
            guard let context else { return 0 }
            let handle = Unmanaged<EasyHandle>.fromOpaque(context).takeUnretainedValue()
            return handle.progressHandler?() == false ? 1 : 0
        })
        try set(CURLOPT_NOPROGRESS, 0)
    }

    /// Keeps the headers of the latest answer: a status line starts a new set (after a
    /// redirect, a `100 Continue` or an authentication round).
    private func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        // Split and trimmed on bytes: every header of every download passes here.
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        func trimmed(_ part: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
            var part = part
            while let first = part.first, isSpace(first) { part = part.dropFirst() }
            while let last = part.last, isSpace(last) { part = part.dropLast() }
            return part
        }
        let line = trimmed(bytes[...])
        if line.starts(with: Array("HTTP/".utf8)) {
            responseHeaders = [:]
            return
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return }
        let name = String(decoding: trimmed(line[..<colon]), as: UTF8.self).lowercased()
        let value = String(decoding: trimmed(line[(colon + 1)...]), as: UTF8.self)
        guard !name.isEmpty else { return }
        if let earlier = responseHeaders[name] {
            responseHeaders[name] = earlier + ", " + value
        } else {
            responseHeaders[name] = value
        }
    }

    // MARK: Results

    /// Runs the configured transfer to its end on this thread.
    func perform() -> CURLcode {
        ccurl_easy_perform(raw)
    }

    /// The HTTP status of the last answer; 0 for file and sftp, and before an answer.
    var status: Int {
        guard isHTTP else { return 0 }
        var value = 0
        return ccurl_getinfo_long(raw, CURLINFO_RESPONSE_CODE, &value) == CURLE_OK ? value : 0
    }

    /// The length of the body this answer announced, if it did.
    var announcedLength: Int64? {
        var value: curl_off_t = -1
        guard ccurl_getinfo_offset(raw, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &value) == CURLE_OK, value >= 0 else { return nil }
        return Int64(value)
    }

    /// The remote file's modification time, if the server said.
    var modificationDate: Date? {
        var value: curl_off_t = -1
        guard ccurl_getinfo_offset(raw, CURLINFO_FILETIME_T, &value) == CURLE_OK, value >= 0 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(value))
    }

    /// The failure for a result code, with curl's detailed message when it wrote one.
    func failure(for code: CURLcode) -> TransferFailure {
        let detail = String(cString: errorBuffer).trimmingCharacters(in: .whitespacesAndNewlines)
        let message = detail.isEmpty ? CurlLibrary.describe(code) : detail
        return .curl(code: Int(code.rawValue), message: Redaction.scrub(message, for: request))
    }

    // MARK: Helpers

    private func set(_ option: CURLoption, _ value: Int) throws {
        try check(ccurl_setopt_long(raw, option, value))
    }

    private func set(_ option: CURLoption, _ value: String) throws {
        guard !value.utf8.contains(0) else { throw Self.badArgument("an option holds a NUL byte") }
        // curl copies string options.
        try check(ccurl_setopt_string(raw, option, value))
    }

    private func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws {
        try check(ccurl_setopt_pointer(raw, option, pointer))
    }

    private func check(_ code: CURLcode) throws {
        guard code == CURLE_OK else {
            throw TransferFailure.curl(code: Int(code.rawValue), message: CurlLibrary.describe(code))
        }
    }

    private static func badArgument(_ message: String) -> TransferFailure {
        .curl(code: Int(CURLE_BAD_FUNCTION_ARGUMENT.rawValue), message: message)
    }

    private static func clampedLong(_ value: Double) -> Int {
        value >= Double(Int32.max) ? Int(Int32.max) : Int(value)
    }

    /// `path` with a leading `~/` replaced by the home directory.
    private static func expandingHome(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        return home + path.dropFirst()
    }
}
