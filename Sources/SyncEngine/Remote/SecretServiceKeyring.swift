import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The Secret Service keyring of the desktop session (GNOME Keyring, KeePassXC, KWallet),
/// reached through libsecret's `secret-tool` program (Debian's `libsecret-tools`) on the D-Bus
/// session bus.
///
/// A secret goes to `secret-tool` on its standard input only, never on its command line (which
/// every user can read in /proc), and comes back on its standard output, a pipe. `secret-tool`
/// is started with `posix_spawn` (``ChildProcess``: no shell, no descriptor of bibread's, no
/// signal blocked) and stopped after ``timeout``: a bus that does not answer is no keyring, it
/// never holds bibread up.
public struct SecretServiceKeyring: Sendable {
    /// The environment variable that turns the keyring off: `BIBREAD_KEYRING=off` keeps
    /// everything in the credentials file.
    public static let switchVariable = "BIBREAD_KEYRING"

    /// What an item is found by: attribute names and values, in order.
    public typealias Attributes = KeyValuePairs<String, String>

    let executable: String
    let environment: [String: String]
    /// How long one run of `secret-tool` may take.
    let timeout: TimeInterval

    /// The keyring that `environment` reaches, without asking it anything: nil when
    /// `BIBREAD_KEYRING` is `off` (or `0`, `no`, `false`), when there is no session bus
    /// (`DBUS_SESSION_BUS_ADDRESS` unset or empty), or when `secret-tool` is not on `PATH`.
    public init?(environment: [String: String], timeout: TimeInterval = 5) {
        let switched = (environment[Self.switchVariable] ?? "").lowercased()
        guard !["off", "0", "no", "false"].contains(switched), !(environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty else {
            return nil
        }
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        guard let found = folders.map({ "\($0)/secret-tool" }).first(where: { (path: String) in access(path, X_OK) == 0 }) else {
            return nil
        }
        executable = found
        self.environment = environment
        self.timeout = timeout
    }

    /// Whether a Secret Service answers now: a lookup of an item that is never stored ends with
    /// status 0 or 1 and says nothing on its standard error (a bus without a Secret Service,
    /// or one that cannot be reached, makes secret-tool say why; a bus that does not answer
    /// makes it wait until ``timeout``).
    public func answers() -> Bool {
        guard let outcome = run(["lookup", "application", "bibread", "kind", "probe"]) else { return false }
        return (outcome.status == 0 || outcome.status == 1) && outcome.errors.isEmpty
    }

    /// Keeps `secret` under `attributes` (replacing an item with the same ones), labelled
    /// `label` (what a keyring manager such as Seahorse shows).
    public func store(_ secret: String, label: String, attributes: Attributes) throws {
        let outcome = try answer(["store", "--label=\(label)"] + Self.arguments(attributes), input: Array(secret.utf8))
        guard outcome.status == 0 else { throw Unreachable() }
    }

    /// The secret kept under `attributes`; nil when the keyring holds none.
    public func secret(for attributes: Attributes) throws -> String? {
        let outcome = try answer(["lookup"] + Self.arguments(attributes))
        guard outcome.status == 0 else { return nil }
        let secret = String(decoding: outcome.output, as: UTF8.self).trimmingCharacters(in: .newlines)
        return secret.isEmpty ? nil : secret
    }

    /// Removes the items kept under `attributes` (none is no failure).
    public func clear(_ attributes: Attributes) throws {
        _ = try answer(["clear"] + Self.arguments(attributes))
    }

    /// The keyring did not answer (no Secret Service, a bus gone or silent, a keyring that
    /// stayed locked). Its text names no secret.
    public struct Unreachable: Error, CustomStringConvertible {
        public var description: String { "the Secret Service keyring cannot be reached" }
    }

    /// A run of secret-tool that ended with status 0 or 1 and nothing on its standard error.
    private func answer(_ arguments: [String], input: [UInt8] = []) throws -> Outcome {
        guard let outcome = run(arguments, input: input), outcome.status == 0 || outcome.status == 1, outcome.errors.isEmpty else {
            throw Unreachable()
        }
        return outcome
    }

    private static func arguments(_ attributes: Attributes) -> [String] {
        attributes.flatMap { [$0.key, $0.value] }
    }

    /// How a run of secret-tool ended.
    private struct Outcome {
        var status: Int32
        var output: [UInt8]
        var errors: [UInt8]
    }

    /// Runs secret-tool with `arguments` and `input` on its standard input (through a pipe,
    /// written before it starts: a secret is far smaller than a pipe's buffer); nil when it
    /// cannot be started, or did not end within ``timeout`` (it is then killed).
    private func run(_ arguments: [String], input: [UInt8] = []) -> Outcome? {
        guard input.count < 16_384, let standardInput = PipeEnds(), let output = PipeEnds(), let errors = PipeEnds() else { return nil }
        var written = 0
        while written < input.count {
            let count = input[written...].withUnsafeBytes { write(standardInput.writing, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            written += count
        }
        standardInput.closeWriting()
        let process: ChildProcess
        do {
            process = try ChildProcess(executable, arguments, environment: environment,
                                       files: (standardInput.reading, output.writing, errors.writing), name: "secret-tool")
        } catch {
            return nil
        }
        standardInput.closeReading()
        output.closeWriting()
        errors.closeWriting()
        let deadline = Date(timeIntervalSinceNow: timeout)
        guard let read = Self.readAll([output.reading, errors.reading], until: deadline) else {
            process.stop()
            return nil
        }
        while true {
            if let status = process.poll() { return Outcome(status: status, output: read[0], errors: read[1]) }
            guard Date() < deadline else {
                process.stop()
                return nil
            }
            usleep(5_000)
        }
    }

    /// Everything read from `descriptors` until each ends (at most 64 kB each); nil when
    /// `deadline` passes first.
    private static func readAll(_ descriptors: [Int32], until deadline: Date) -> [[UInt8]]? {
        var contents = descriptors.map { _ in [UInt8]() }
        var open = Set(descriptors.indices)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !open.isEmpty {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var polled = open.sorted().map { pollfd(fd: descriptors[$0], events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polled, nfds_t(polled.count), Int32(min(left * 1000, 100)) + 1)
            guard ready >= 0 || errno == EINTR else { return nil }
            for entry in polled where entry.revents != 0 {
                guard let index = descriptors.firstIndex(of: entry.fd) else { continue }
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    if contents[index].count < 65_536 { contents[index] += buffer[0..<count] }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    open.remove(index)
                }
            }
        }
        return contents
    }
}

/// A pipe's two descriptors (close-on-exec), each closed once: when asked, else when it goes.
private final class PipeEnds {
    private(set) var reading: Int32
    private(set) var writing: Int32

    init?() {
        var ends: [Int32] = [-1, -1]
        // pipe2 is not in Glibc's module; spawned programs get no descriptor above 2 anyway
        // (ChildProcess closes them), close-on-exec is for the other ways a child is started.
        guard pipe(&ends) == 0 else { return nil }
        reading = ends[0]
        writing = ends[1]
        _ = fcntl(reading, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writing, F_SETFD, FD_CLOEXEC)
    }

    deinit {
        closeReading()
        closeWriting()
    }

    func closeReading() {
        if reading >= 0 { close(reading) }
        reading = -1
    }

    func closeWriting() {
        if writing >= 0 { close(writing) }
        writing = -1
    }
}
