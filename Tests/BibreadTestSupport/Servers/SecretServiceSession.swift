import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A private D-Bus session bus of the test's own (`dbus-daemon` with a configuration that
/// activates no service, so nothing of the machine's starts on it), and on it, unless asked not
/// to, a real Secret Service: `gnome-keyring-daemon --unlock --components=secrets`, which makes an
/// unlocked "login" keyring under the test's own `XDG_DATA_HOME` (its password on its standard
/// input). Nothing touches the keyring of the user running the tests. `stop()` (or the object
/// going away) ends both, with everything they started.
public final class SecretServiceSession: @unchecked Sendable {
    /// The variables that put a program on this bus: `DBUS_SESSION_BUS_ADDRESS`, and the home
    /// and data folder the keyring lives in.
    public let environment: [String: String]
    /// The bus's address.
    public let address: String
    private let bus: ServerProcess
    private let keyring: ServerProcess?

    /// Starts the bus, with folders and logs below `root` (the test's own folder, the `HOME` of
    /// ``Fixtures/isolatedEnvironment(under:)``), and the Secret Service when `withKeyring`.
    public init(root: URL, withKeyring: Bool = true) throws {
        let folder = root.appendingPathComponent("secret-service")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let configuration = folder.appendingPathComponent("bus.conf")
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:dir=\(folder.path)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.write(to: configuration, atomically: true, encoding: .utf8)
        let addressFile = folder.appendingPathComponent("address")
        bus = try ServerProcess.spawn("dbus-daemon", ["--config-file=\(configuration.path)", "--nofork", "--nopidfile", "--print-address=1"],
                                      logPath: folder.appendingPathComponent("dbus.log").path, outputPath: addressFile.path)
        var printed = ""
        let deadline = Date().addingTimeInterval(20)
        while !printed.hasSuffix("\n") && Date() < deadline && !bus.hasExited {
            usleep(20_000)
            printed = (try? String(contentsOf: addressFile, encoding: .utf8)) ?? ""
        }
        address = printed.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !address.isEmpty else {
            bus.stop()
            throw TestServerError("dbus-daemon printed no address: \(Self.log(folder, "dbus.log"))")
        }
        environment = ["DBUS_SESSION_BUS_ADDRESS": address, "HOME": root.path,
                       "XDG_DATA_HOME": root.appendingPathComponent("data").path]
        guard withKeyring else {
            keyring = nil
            return
        }
        let password = folder.appendingPathComponent("password")
        try "test-keyring-password".write(to: password, atomically: true, encoding: .utf8)
        keyring = try ServerProcess.spawn("gnome-keyring-daemon", ["--unlock", "--components=secrets", "--foreground"],
                                          logPath: folder.appendingPathComponent("keyring.log").path, inputPath: password.path,
                                          environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        try waitForKeyring(folder: folder, root: root)
    }

    deinit { stop() }

    /// Ends the Secret Service and the bus (and whatever they started). Safe to call more than once.
    public func stop() {
        keyring?.stop()
        bus.stop()
    }

    /// Runs the real `secret-tool` on this bus with `arguments`.
    public func secretTool(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/secret-tool"), arguments, environment: environment)
    }

    /// Until the keyring answers a lookup (status 1, nothing on standard error) and its login
    /// keyring is on disk.
    private func waitForKeyring(folder: URL, root: URL) throws {
        let loginKeyring = root.appendingPathComponent("data/keyrings/login.keyring").path
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: loginKeyring),
               let probe = try? secretTool(["lookup", "application", "bibread-test-session", "kind", "probe"]),
               probe.status == 1, probe.standardError.isEmpty {
                return
            }
            guard keyring?.hasExited != true else { break }
            usleep(50_000)
        }
        stop()
        throw TestServerError("gnome-keyring-daemon did not answer on the test's bus: \(Self.log(folder, "keyring.log"))")
    }

    private static func log(_ folder: URL, _ name: String) -> String {
        (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? "(no log)"
    }
}
