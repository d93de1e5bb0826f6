import BibModel
import Foundation

/// OpenSSH's `sftp` program run in batch mode, for the one step libcurl cannot take: replacing
/// a file in one rename. libcurl's sftp (through libssh2 1.10) renames with SFTP version 3's
/// plain rename, which OpenSSH's server refuses when the target exists; the `sftp` program's
/// `rename` uses the server's `posix-rename@openssh.com` extension (an atomic `rename(2)`)
/// whenever the server offers it.
///
/// It logs in as libcurl does: the URL's user, host and port, the key file (else ssh-agent),
/// and the host key checked against the same known-hosts file, never asking anything
/// (`BatchMode`).
struct SFTPClient {
    let user: String?
    let host: String
    let port: Int?
    let credentials: TransferCredentials

    /// The login of `url` (`sftp://user@host:port/…`) with `credentials`.
    init(url: String, credentials: TransferCredentials) throws {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            throw RemoteError.unsupportedURL(url)
        }
        var user = components.user.map { $0.removingPercentEncoding ?? $0 }
        if case .ssh(let named?, _, _, _, _) = credentials { user = named }
        self.user = user
        self.host = host
        port = components.port
        self.credentials = credentials
    }

    /// The server's file system path of a URL's path: a path that starts `/~/` is relative to
    /// the login's home folder, as in libcurl.
    static func serverPath(ofURLPath encoded: String) -> String {
        let path = encoded.removingPercentEncoding ?? encoded
        return path.hasPrefix("/~/") ? String(path.dropFirst(3)) : path
    }

    /// `text` as one argument of a batch command: in double quotes, with `"` and `\` escaped.
    /// Refuses control characters, which no command line can hold.
    static func quoted(_ text: String) throws -> String {
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw RemoteError.unsafePath(text, reason: "it holds a control character")
        }
        return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Runs `commands`, one a line; stops at the first that fails (but for those starting with
    /// `-`) and throws with what `sftp` said.
    func run(_ commands: [String]) throws {
        guard let program = Self.program else {
            throw TransportError.uploadFailed(path: host, reason: "OpenSSH's sftp program is not installed; it replaces a file on an SFTP server in one step")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data((commands.joined(separator: "\n") + "\n").utf8))
        try? input.fileHandleForWriting.close()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let message = String(decoding: said.prefix(2048), as: UTF8.self)
                .split(whereSeparator: \.isNewline).last.map(String.init) ?? "it ended with status \(process.terminationStatus)"
            throw SFTPClientError(message: TerminalText.cleanedLine(message))
        }
    }

    /// The command line: batch commands from standard input, no questions, the host key
    /// checked against the known-hosts file only, bounded waits for a server that is gone.
    var arguments: [String] {
        var arguments = ["-b", "-", "-q",
                         "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes", "-o", "GlobalKnownHostsFile=/dev/null",
                         "-o", "ConnectTimeout=10", "-o", "ServerAliveInterval=10", "-o", "ServerAliveCountMax=3",
                         "-o", "LogLevel=ERROR"]
        if case .ssh(_, let privateKey, _, _, let knownHosts) = credentials {
            arguments += ["-o", "UserKnownHostsFile=\(knownHosts ?? "~/.ssh/known_hosts")"]
            if let privateKey { arguments += ["-i", privateKey, "-o", "IdentitiesOnly=yes"] }
        }
        if let port { arguments += ["-P", String(port)] }
        let address = host.contains(":") ? "[\(host)]" : host
        arguments.append((user.map { "\($0)@" } ?? "") + address)
        return arguments
    }

    /// Where the `sftp` program is: the first on `PATH`, else `/usr/bin/sftp`.
    static var program: String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin"]
        return folders.map { $0 + "/sftp" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// What the `sftp` program said when a batch failed.
struct SFTPClientError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
