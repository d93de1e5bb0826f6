import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One of the Python servers of `Tests/Servers`, run as `python3 -u SCRIPT --root … --port …`
/// in a fresh temporary folder. With port 0 the server binds a port the kernel chooses and
/// writes it to a ready file; it logs each request ("METHOD /path") to a request log when the
/// request arrives, and exits by itself if the test process goes away.
final class PythonServerInstance: @unchecked Sendable {
    let name: String
    let script: String
    let root: URL
    let extraArguments: [String]
    let directory: URL
    let logPath: String
    let requestLogPath: String
    /// Each request as "SECONDS METHOD /path" (only for servers started with `timedLog`).
    let timedRequestLogPath: String
    private let readyPath: String
    private let lock = NSLock()
    private var process: ServerProcess
    let port: Int

    private init(name: String, script: String, root: URL, extraArguments: [String], directory: URL,
                 process: ServerProcess, port: Int) {
        self.name = name
        self.script = script
        self.root = root
        self.extraArguments = extraArguments
        self.directory = directory
        self.process = process
        self.port = port
        logPath = directory.appendingPathComponent("server.log").path
        requestLogPath = directory.appendingPathComponent("requests.log").path
        timedRequestLogPath = directory.appendingPathComponent("requests-timed.log").path
        readyPath = directory.appendingPathComponent("ready").path
    }

    /// With `timedLog`, the server also logs each request with the time it arrived
    /// (`--timed-request-log`, which only `fault_server.py` takes).
    static func start(name: String, script scriptName: String, root: URL, arguments: [String],
                      timedLog: Bool = false) throws -> PythonServerInstance {
        guard FileManager.default.fileExists(atPath: root.path) else { throw TestServerError("\(name): no folder \(root.path)") }
        let script = try ServerSupport.script(scriptName)
        let directory = try Fixtures.temporaryDirectory()
        let arguments = arguments + (timedLog ? ["--timed-request-log", directory.appendingPathComponent("requests-timed.log").path] : [])
        do {
            let (process, port) = try launch(name: name, script: script, root: root, arguments: arguments,
                                             directory: directory, port: 0)
            return PythonServerInstance(name: name, script: script, root: root, extraArguments: arguments,
                                        directory: directory, process: process, port: port)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    private static func launch(name: String, script: String, root: URL, arguments: [String], directory: URL,
                               port: Int) throws -> (ServerProcess, Int) {
        let readyPath = directory.appendingPathComponent("ready").path
        let logPath = directory.appendingPathComponent("server.log").path
        unlink(readyPath)
        let process = try ServerProcess.spawn(try ServerSupport.python3(), [
            "-u", script, "--root", root.standardizedFileURL.path, "--port", String(port),
            "--ready-file", readyPath, "--request-log", directory.appendingPathComponent("requests.log").path,
            "--parent-pid", String(getpid()),
        ] + arguments, logPath: logPath)
        var boundPort = port
        try ServerSupport.waitUntilReady(name, process: process) {
            let text = ServerSupport.read(readyPath).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let ready = Int(text) else { return false }
            boundPort = ready
            return Loopback.accepts(ready)
        }
        return (process, boundPort)
    }

    /// Starts the server again on the same port (after it died or was stopped); the request log
    /// goes on.
    func restart() throws {
        lock.lock()
        defer { lock.unlock() }
        process.stop()
        let (process, _) = try PythonServerInstance.launch(name: name, script: script, root: root, arguments: extraArguments,
                                                           directory: directory, port: port)
        self.process = process
    }

    var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !process.hasExited
    }

    var requests: [String] { ServerSupport.lines(requestLogPath) }

    /// A control request to the server (not counted as a request).
    func control(_ path: String, json: Any?) throws {
        let body = try json.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
        let answer: (status: Int, body: String)
        do {
            answer = try Loopback.request(port: port, method: "POST", path: path, body: body)
        } catch {
            throw TestServerError("\(name): control request \(path) failed (is the server running?): \(error)")
        }
        guard answer.status == 200 else {
            throw TestServerError("\(name): control request \(path) answered \(answer.status): \(answer.body)")
        }
    }

    func stop() {
        lock.lock()
        defer { lock.unlock() }
        process.stop()
    }

    deinit {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A stand-in for Dropbox's HTTP API v2, for tests only (`Tests/Servers/dropbox_standin.py`).
///
/// Serves `root` as the contents of a Dropbox account on 127.0.0.1: `POST /2/files/list_folder`
/// and `/2/files/list_folder/continue` (JSON, paginated with `limit`), `POST /2/files/download`
/// (`Dropbox-API-Arg` header, `Range`), with Dropbox's `content_hash`, its 401/409 JSON errors and
/// its 400 text errors. The RPC and content endpoints share one base URL (`apiBase`), where real
/// Dropbox uses api.dropboxapi.com and content.dropboxapi.com. See `Tests/Servers/README.md`.
public final class DropboxStandIn: @unchecked Sendable {
    /// `http://127.0.0.1:PORT` (no trailing slash): `apiBase/2/files/list_folder`…
    public let apiBase: URL
    /// The base URL of the content endpoints (download): the same server as `apiBase`.
    public var contentBase: URL { apiBase }
    /// The access token the stand-in accepts (`Authorization: Bearer TOKEN`).
    public let token: String
    public let port: Int
    public let root: URL
    /// The stand-in's stderr/stdout (one line per request, errors, tracebacks).
    public let logPath: String
    private let instance: PythonServerInstance

    private init(instance: PythonServerInstance, token: String) {
        self.instance = instance
        self.token = token
        port = instance.port
        root = instance.root
        logPath = instance.logPath
        apiBase = URL(string: "http://127.0.0.1:\(instance.port)")!
    }

    /// The app key the stand-in's OAuth endpoints accept as `client_id` unless told another.
    public static let defaultAppKey = "standinappkey01"

    /// Starts the stand-in. `token` is accepted for ever; the access tokens its `/oauth2/token`
    /// issues to the app `appKey` expire after `tokenLifetime` seconds.
    public static func start(root: URL, token: String, appKey: String = defaultAppKey,
                             tokenLifetime: Int = 14400) throws -> DropboxStandIn {
        guard !token.isEmpty, !token.contains(where: \.isWhitespace) else {
            throw TestServerError("DropboxStandIn: the token must be a non-empty word")
        }
        let instance = try PythonServerInstance.start(name: "DropboxStandIn", script: "dropbox_standin.py", root: root,
                                                      arguments: ["--token", token, "--app-key", appKey,
                                                                  "--token-lifetime", String(tokenLifetime)])
        return DropboxStandIn(instance: instance, token: token)
    }

    /// Plays the user's browser at an authorization address bibread printed: the stand-in
    /// allows the app at once and shows the code to paste, which this returns.
    public func authorize(_ address: String) throws -> String {
        guard let components = URLComponents(string: address), components.port == port,
              components.path == "/oauth2/authorize" else {
            throw TestServerError("DropboxStandIn: \(address) is not this stand-in's /oauth2/authorize")
        }
        let answer = try Loopback.request(port: port, method: "GET", path: "/oauth2/authorize?" + (components.percentEncodedQuery ?? ""))
        guard answer.status == 200, let start = answer.body.range(of: "value=\""),
              let end = answer.body[start.upperBound...].firstIndex(of: "\"") else {
            throw TestServerError("DropboxStandIn: /oauth2/authorize answered \(answer.status): \(answer.body)")
        }
        return String(answer.body[start.upperBound..<end])
    }

    /// After `requests` more API calls (of any token), every access token issued by then is
    /// expired (401 `expired_access_token`), as a token is when its time is up in the middle of
    /// a sync; tokens issued later are not.
    public func expireTokens(afterRequests requests: Int) throws {
        try instance.control("/__expire_tokens", json: ["after_requests": requests])
    }

    /// Revokes every token, as the user removing the app at dropbox.com does.
    public func revokeAll() throws {
        try instance.control("/__revoke_all", json: nil)
    }

    /// The tokens the OAuth endpoints issued, and how many refresh grants were asked for.
    public func issued() throws -> (accessTokens: [String], refreshTokens: [String], refreshGrants: Int) {
        let answer = try Loopback.request(port: port, method: "GET", path: "/__issued")
        guard answer.status == 200, let object = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any] else {
            throw TestServerError("DropboxStandIn: /__issued answered \(answer.status)")
        }
        return (object["access_tokens"] as? [String] ?? [], object["refresh_tokens"] as? [String] ?? [],
                object["refresh_grants"] as? Int ?? 0)
    }

    /// API requests received so far (counted when they arrive).
    public var requestCount: Int { instance.requests.count }

    /// API requests received so far, as "POST /2/files/…", in order.
    public var requests: [String] { instance.requests }

    public var isRunning: Bool { instance.isRunning }

    public func stop() { instance.stop() }
}

/// An HTTP file server on 127.0.0.1 whose failures a test chooses per path at run time
/// (`Tests/Servers/fault_server.py`): GET and HEAD of the files under `root`, with `Range` (206),
/// `If-Range`, ETag and Last-Modified; folders are not listed by GET, but PROPFIND lists them as
/// WebDAV does (Depth 1, with the GET's ETags), so the server also stands in for a WebDAV remote
/// whose listings misbehave.
public final class FaultServer: @unchecked Sendable {
    /// What the server does with requests for one path.
    public enum Fault: Sendable, Equatable {
        /// Serve normally.
        case none
        /// Answer every request with this status (500, 503…) and a short text body.
        case status(Int)
        /// Answer every request (or only those of `method`) with this status and `body`, sent as
        /// UTF-8 byte for byte: an error page as hostile as a test needs.
        case statusWithBody(Int, body: String, method: String? = nil)
        /// Announce the full Content-Length, send this many bytes of the body, close the connection.
        case truncate(afterBytes: Int)
        /// Send the body at about this many bytes a second.
        case slow(bytesPerSecond: Int)
        /// Send headers and this many bytes of the body, then the whole server process exits, as
        /// if killed; `restart()` brings it back.
        case dieAfter(bytes: Int)
        /// The first `count` requests get `status`, later ones are served normally.
        case failTimes(Int, status: Int)
        /// The first `count` requests get `status` with `Retry-After: retryAfter` (seconds or an
        /// HTTP date), later ones are served normally.
        case busy(times: Int, status: Int, retryAfter: String)
        /// A PROPFIND of the folder also lists these hrefs, exactly as given (percent-encoded
        /// as the test wants them), as files of 10 bytes.
        case extraEntries([String])
        /// GET answers carry no Content-Length: the body ends when the server closes the
        /// connection, after `afterBytes` bytes when given (cut short, with nothing to tell).
        case closeDelimited(afterBytes: Int?)
        /// PROPFIND listings of this folder (a path ending in `/`) leave out `getcontentlength`.
        case listingWithoutLengths

        var json: [String: Any] {
            switch self {
            case .none: ["kind": "none"]
            case let .status(status): ["kind": "status", "status": status]
            case let .statusWithBody(status, body, method):
                ["kind": "status", "status": status, "body": body].merging(method.map { ["method": $0] } ?? [:]) { $1 }
            case let .truncate(bytes): ["kind": "truncate", "bytes": bytes]
            case let .slow(rate): ["kind": "slow", "bytes_per_second": rate]
            case let .dieAfter(bytes): ["kind": "die_after", "bytes": bytes]
            case let .failTimes(times, status): ["kind": "fail_times", "times": times, "status": status]
            case let .busy(times, status, retryAfter):
                ["kind": "fail_times", "times": times, "status": status, "retry_after": retryAfter]
            case let .extraEntries(hrefs): ["kind": "extra_entries", "hrefs": hrefs]
            case let .closeDelimited(bytes?): ["kind": "close_delimited", "bytes": bytes]
            case .closeDelimited(nil): ["kind": "close_delimited"]
            case .listingWithoutLengths: ["kind": "listing_without_lengths"]
            }
        }
    }

    /// `http://127.0.0.1:PORT/`; files under `root` are at their relative path.
    public let baseURL: URL
    public let port: Int
    public let root: URL
    public let logPath: String
    private let instance: PythonServerInstance

    private init(instance: PythonServerInstance) {
        self.instance = instance
        port = instance.port
        root = instance.root
        logPath = instance.logPath
        baseURL = URL(string: "http://127.0.0.1:\(instance.port)/")!
    }

    public static func start(root: URL) throws -> FaultServer {
        FaultServer(instance: try PythonServerInstance.start(name: "FaultServer", script: "fault_server.py", root: root, arguments: [],
                                                             timedLog: true))
    }

    /// The URL of a file below `root`, given by its relative path.
    public func url(for relativePath: String) -> URL { ServerSupport.url(baseURL, appending: relativePath) }

    /// Sets what happens to requests for `path` (the URL path, like "/papers/a.pdf" or
    /// "papers/a.pdf"; "*" for every path without a fault of its own). `.none` removes the fault.
    public func setFault(_ fault: Fault, for path: String) throws {
        let key = path == "*" || path.hasPrefix("/") ? path : "/" + path
        try instance.control("/__fault", json: ["path": key, "fault": fault.json])
    }

    /// Removes every fault.
    public func clearFaults() throws {
        try instance.control("/__reset", json: nil)
    }

    /// Starts the server again on the same port and root, with no faults (after a `.dieAfter`,
    /// or `stop()`). `requestCount` goes on counting.
    public func restart() throws { try instance.restart() }

    /// File requests received so far (counted when they arrive; control requests are not counted).
    public var requestCount: Int { instance.requests.count }

    /// File requests received so far, as "GET /path" (the path as requested, percent-encoded,
    /// without the query), in order.
    public var requests: [String] { instance.requests }

    /// File requests received so far with the time each arrived (seconds since 1970), in order.
    public var timedRequests: [(time: Double, request: String)] {
        ServerSupport.lines(instance.timedRequestLogPath).compactMap { line in
            guard let space = line.firstIndex(of: " "), let time = Double(line[..<space]) else { return nil }
            return (time, String(line[line.index(after: space)...]))
        }
    }

    /// False once the process has exited (after a `.dieAfter` fault fired, or `stop()`).
    public var isRunning: Bool { instance.isRunning }

    public func stop() { instance.stop() }
}
