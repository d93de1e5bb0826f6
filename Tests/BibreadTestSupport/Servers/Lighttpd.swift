import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One lighttpd process serving a folder on 127.0.0.1, configured in a fresh temporary folder;
/// shared by `WebDAVServer` and `StaticHTTPServer`.
///
/// Configuration worth knowing when writing tests against it:
/// - The stat cache is off, so a file changed by a test is served changed at once (with
///   lighttpd's default cache, a file rewritten by a test was served with its old size).
/// - Requests are logged by mod_accesslog through a pipe to `cat` (lighttpd buffers a log
///   *file* for up to a second, a pipe it writes at once), when each request ends.
final class LighttpdInstance: @unchecked Sendable {
    let directory: URL
    let port: Int
    let logPath: String
    let accessLogPath: String
    private let process: ServerProcess

    private init(directory: URL, port: Int, process: ServerProcess) {
        self.directory = directory
        self.port = port
        self.process = process
        logPath = directory.appendingPathComponent("server.log").path
        accessLogPath = directory.appendingPathComponent("access.log").path
    }

    static func start(root: URL, webdav: Bool, user: String?, password: String?, name: String,
                      kilobytesPerSecond: Int? = nil, writable: Bool = false) throws -> LighttpdInstance {
        let lighttpd = try ServerSupport.program("lighttpd", preferring: ["/usr/sbin/lighttpd"])
        guard FileManager.default.fileExists(atPath: root.path) else { throw TestServerError("\(name): no folder \(root.path)") }
        if (user == nil) != (password == nil) { throw TestServerError("\(name): give both a user and a password, or neither") }
        if let user, user.isEmpty || user.contains(":") || user.contains("\n") || password!.contains("\n") {
            throw TestServerError("\(name): the user name cannot be empty or hold ':', nor either a line break")
        }
        let directory = try Fixtures.temporaryDirectory()
        do {
            try ServerSupport.checkConfigurable(directory.path, for: "lighttpd")
            try ServerSupport.checkConfigurable(root.path, for: "lighttpd")
            let python = try ServerSupport.python3()
            let supervisor = try ServerSupport.script("supervise.py")
            if let user, let password {
                try ServerSupport.write("\(user):\(password)\n", to: directory.appendingPathComponent("users"))
            }
            var lastError: Error?
            for _ in 0..<5 {
                let port = try Loopback.freePort()
                let configuration = directory.appendingPathComponent("lighttpd.conf")
                try ServerSupport.write(config(root: root, directory: directory, port: port, webdav: webdav,
                                               authenticated: user != nil, kilobytesPerSecond: kilobytesPerSecond,
                                               writable: writable), to: configuration)
                let logPath = directory.appendingPathComponent("server.log").path
                let process = try ServerProcess.spawn(python, ["-u", supervisor, "--parent-pid", String(getpid()), "--",
                                                               lighttpd, "-D", "-f", configuration.path], logPath: logPath)
                do {
                    try ServerSupport.waitUntilReady("\(name) (lighttpd on 127.0.0.1:\(port))", process: process) {
                        ServerSupport.read(logPath).contains("server started") && Loopback.accepts(port)
                    }
                    return LighttpdInstance(directory: directory, port: port, process: process)
                } catch {
                    lastError = error
                    // Another program took the port between our check and lighttpd's bind: retry.
                    guard ServerSupport.read(logPath).contains("Address already in use") else { throw error }
                    try? FileManager.default.removeItem(atPath: logPath)
                }
            }
            throw lastError ?? TestServerError("\(name): no free port")
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    private static func config(root: URL, directory: URL, port: Int, webdav: Bool, authenticated: Bool,
                               kilobytesPerSecond: Int?, writable: Bool) -> String {
        let dir = directory.path
        var modules = ["mod_accesslog"]
        if authenticated { modules = ["mod_auth", "mod_authn_file"] + modules }
        if webdav { modules.append("mod_webdav") }
        var lines = [
            "server.document-root = \"\(root.standardizedFileURL.path)\"",
            "server.bind = \"127.0.0.1\"",
            "server.port = \(port)",
            "server.errorlog = \"\(dir)/server.log\"",
            "server.upload-dirs = ( \"\(dir)\" )",
            "server.stat-cache-engine = \"disable\"",
            "server.tag = \"lighttpd\"",
            "server.modules = ( \(modules.map { "\"\($0)\"" }.joined(separator: ", ")) )",
            // No index files and no mod_dirlisting: a folder is never listed by GET.
            "index-file.names = ( )",
            "accesslog.filename = \"|exec /bin/cat >> '\(dir)/access.log'\"",
            "accesslog.format = \"%m %U %>s\"",
            "mimetype.assign = ( \".bib\" => \"text/x-bibtex; charset=utf-8\", \".pdf\" => \"application/pdf\", "
                + "\".txt\" => \"text/plain; charset=utf-8\", \"\" => \"application/octet-stream\" )",
        ]
        if webdav {
            lines += ["webdav.activate = \"enable\"", "webdav.is-readonly = \"\(writable ? "disable" : "enable")\""]
        }
        if let kilobytesPerSecond { lines.append("connection.kbytes-per-second = \(kilobytesPerSecond)") }
        if authenticated {
            lines += [
                "auth.backend = \"plain\"",
                "auth.backend.plain.userfile = \"\(dir)/users\"",
                "auth.require = ( \"\" => ( \"method\" => \"basic\", \"realm\" => \"bibread-test\", \"require\" => \"valid-user\" ) )",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Requests that have ended, as "METHOD /path STATUS" with the path as requested (lighttpd
    /// logs a request when it ends: this waits briefly for the log to settle).
    var requests: [String] { ServerSupport.settledLines(accessLogPath) }

    var isRunning: Bool { !process.hasExited }

    func stop() { process.stop() }

    deinit {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// lighttpd with mod_webdav serving a folder on 127.0.0.1, for tests: read-only, or writable
/// (`PUT` honours `If-Match` and `If-None-Match: *` with 412, and answers the new `ETag`).
///
/// Files under `root` are at `baseURL` + their relative path. PROPFIND (Depth 0 or 1) answers
/// `getetag`, `getlastmodified`, `getcontentlength`, `getcontenttype` and `resourcetype`; GET
/// honours `Range` (206). With a user and password every request needs HTTP basic auth (401
/// otherwise).
///
/// lighttpd's ETags are a quoted decimal hash, like `"2138695109"`, of the file's inode, size
/// and modification time: the same value in PROPFIND's `getetag` and GET's `ETag`, and a new one
/// when the file is rewritten, even with the same size within the same second. (lighttpd sends
/// `ETag` and `Last-Modified` on GET only when a MIME type is assigned, which this configuration
/// does; `getlastmodified` has whole seconds.)
public final class WebDAVServer: @unchecked Sendable {
    public let baseURL: URL
    public let port: Int
    public let root: URL
    public let user: String?
    public let password: String?
    /// lighttpd's own log (start-up messages and errors).
    public let logPath: String
    /// mod_accesslog's log, one "METHOD /path STATUS" line per request.
    public let accessLogPath: String
    private let instance: LighttpdInstance

    private init(instance: LighttpdInstance, root: URL, user: String?, password: String?) {
        self.instance = instance
        self.root = root
        self.user = user
        self.password = password
        port = instance.port
        baseURL = URL(string: "http://127.0.0.1:\(instance.port)/")!
        logPath = instance.logPath
        accessLogPath = instance.accessLogPath
    }

    /// Starts lighttpd serving `root`; with `user` and `password`, HTTP basic auth is required;
    /// with `kilobytesPerSecond`, each connection is held to that rate (lighttpd's
    /// `connection.kbytes-per-second`), so that a download of a large file takes a while; with
    /// `writable`, it takes `PUT`, `DELETE`, `MOVE` and the rest (`webdav.is-readonly` off).
    /// lighttpd writes a `PUT`'s body to a file of its own and links it into place only once
    /// the body is whole: an interrupted upload leaves the old file.
    public static func start(root: URL, user: String? = nil, password: String? = nil,
                             kilobytesPerSecond: Int? = nil, writable: Bool = false) throws -> WebDAVServer {
        let instance = try LighttpdInstance.start(root: root, webdav: true, user: user, password: password, name: "WebDAVServer",
                                                  kilobytesPerSecond: kilobytesPerSecond, writable: writable)
        return WebDAVServer(instance: instance, root: root, user: user, password: password)
    }

    /// The URL of a file or folder below `root`, given by its relative path.
    public func url(for relativePath: String) -> URL { ServerSupport.url(baseURL, appending: relativePath) }

    /// Requests served so far (each one that has ended), from the access log.
    public var requestCount: Int { instance.requests.count }

    /// Requests served so far, as "METHOD /path STATUS" (the path as requested, percent-encoded,
    /// without the query), in order.
    public var requests: [String] { instance.requests }

    public var isRunning: Bool { instance.isRunning }

    /// Stops lighttpd (SIGTERM, then SIGKILL). The logs stay readable until the server is released.
    public func stop() { instance.stop() }
}

/// lighttpd serving a folder as plain static files on 127.0.0.1, for tests: GET and HEAD with
/// `Range`, no WebDAV, folders never listed (403).
public final class StaticHTTPServer: @unchecked Sendable {
    public let baseURL: URL
    public let port: Int
    public let root: URL
    public let logPath: String
    public let accessLogPath: String
    private let instance: LighttpdInstance

    private init(instance: LighttpdInstance, root: URL) {
        self.instance = instance
        self.root = root
        port = instance.port
        baseURL = URL(string: "http://127.0.0.1:\(instance.port)/")!
        logPath = instance.logPath
        accessLogPath = instance.accessLogPath
    }

    public static func start(root: URL) throws -> StaticHTTPServer {
        let instance = try LighttpdInstance.start(root: root, webdav: false, user: nil, password: nil, name: "StaticHTTPServer")
        return StaticHTTPServer(instance: instance, root: root)
    }

    /// The URL of a file below `root`, given by its relative path.
    public func url(for relativePath: String) -> URL { ServerSupport.url(baseURL, appending: relativePath) }

    /// Requests served so far (each one that has ended), from the access log.
    public var requestCount: Int { instance.requests.count }

    /// Requests served so far, as "METHOD /path STATUS" (the path as requested, percent-encoded,
    /// without the query), in order.
    public var requests: [String] { instance.requests }

    public var isRunning: Bool { instance.isRunning }

    public func stop() { instance.stop() }
}
