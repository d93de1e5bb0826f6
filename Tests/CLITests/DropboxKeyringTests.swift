import BibreadTestSupport
import Foundation
import Testing

/// `bibread login dropbox` with a Secret Service keyring running: a real gnome-keyring-daemon on
/// a private session bus (`SecretServiceSession`), the real `secret-tool`, the real binary and
/// the Dropbox stand-in. The refresh token goes to the keyring, the credentials file keeps only
/// the app key; without a keyring (or with `BIBREAD_KEYRING=off`) the file keeps it as before.
@Suite("bibread login dropbox with the Secret Service keyring")
struct DropboxKeyringTests {
    /// A sign-in test's setup, with a keyring session and `secret-tool` wrapped so that every
    /// command line bibread gives it is logged (to check that no secret is on one).
    final class Keyring {
        let setup: DropboxLoginTests.Setup
        let session: SecretServiceSession
        /// The variables that put bibread on the session's bus, with the logging `secret-tool` first on PATH.
        let environment: [String: String]
        let commandLines: URL

        init(withKeyring: Bool = true) throws {
            setup = try DropboxLoginTests.Setup()
            session = try SecretServiceSession(root: setup.root, withKeyring: withKeyring)
            let folder = setup.root.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            commandLines = setup.root.appendingPathComponent("secret-tool-command-lines")
            let wrapper = folder.appendingPathComponent("secret-tool")
            try """
                #!/bin/sh
                printf '%s\\n' "$*" >> '\(commandLines.path)'
                exec /usr/bin/secret-tool "$@"
                """.write(to: wrapper, atomically: true, encoding: .utf8)
            chmod(wrapper.path, 0o755)
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            environment = ["DBUS_SESSION_BUS_ADDRESS": session.address, "PATH": "\(folder.path):\(path)"]
        }

        deinit { session.stop() }

        /// The refresh token the keyring holds for the remote `box` (the test's own lookup).
        func tokenInKeyring() throws -> String? {
            let lookup = try session.secretTool(["lookup", "application", "bibread", "kind", "dropbox-refresh-token", "remote", "box"])
            #expect(lookup.standardError.isEmpty, "\(lookup.standardError)")
            return lookup.status == 0 ? lookup.standardOutput : nil
        }

        /// Whether the keyring holds a refresh token for the remote `box` (a Bool: a failed
        /// expectation prints no token).
        func holdsAToken() throws -> Bool { try tokenInKeyring() != nil }

        /// The command lines bibread gave secret-tool.
        var secretToolCommandLines: [String] {
            ((try? String(contentsOf: commandLines, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        /// No token the stand-in issued on any command line bibread gave secret-tool.
        func expectNoTokenOnACommandLine(sourceLocation: SourceLocation = #_sourceLocation) throws {
            let issued = try setup.standIn.issued()
            for token in issued.refreshTokens + issued.accessTokens {
                #expect(!secretToolCommandLines.contains { $0.contains(token) }, "a token starting \(token.prefix(6)) was on a command line",
                        sourceLocation: sourceLocation)
            }
        }
    }

    // Checks of a token whose failure prints no token (an expectation's operands would be).

    static func expectPresent(_ text: String, _ token: String, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
        let present = text.contains(token)
        #expect(present, comment, sourceLocation: sourceLocation)
    }

    static func expectAbsent(_ text: String, _ token: String, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
        let absent = !text.contains(token)
        #expect(absent, comment, sourceLocation: sourceLocation)
    }

    static func expectSame(_ found: String?, _ token: String, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
        let same = found == token
        #expect(same, comment, sourceLocation: sourceLocation)
    }

    @Test func signInWithAKeyringKeepsTheTokenThereNotInTheFileAndSyncs() throws {
        let keyring = try Keyring()
        let setup = keyring.setup
        let finish = try setup.signIn(environment: keyring.environment)
        #expect(finish.standardOutput.contains("the sign-in is kept in the Secret Service keyring"), "\(finish.standardOutput)")
        let issued = try setup.standIn.issued()
        #expect(issued.refreshTokens.count == 1)
        let token = try #require(issued.refreshTokens.first)
        Self.expectSame(try keyring.tokenInKeyring(), token, "the keyring holds the refresh token")
        let kept = setup.credentialsText
        Self.expectAbsent(kept, token, "the refresh token is not in the credentials file")
        #expect(kept.contains("refreshTokenInKeyring") && kept.contains("appKey"), "\(kept)")
        #expect(keyring.secretToolCommandLines.contains { $0.hasPrefix("store --label=") }, "\(keyring.secretToolCommandLines)")

        // The token is read back from the keyring and refreshed at Dropbox.
        let grantsBefore = issued.refreshGrants
        let sync = try setup.bibread(["sync", "box", "--all-pdfs"], environment: keyring.environment)
        #expect(sync.status == 0, "\(sync.standardError)")
        #expect(sync.standardError.contains("library.bib: updated"), "\(sync.standardError)")
        #expect(try setup.standIn.issued().refreshGrants > grantsBefore, "the refresh token was used")
        #expect(keyring.secretToolCommandLines.contains { $0.hasPrefix("lookup application bibread kind dropbox-refresh-token remote box") })
        try keyring.expectNoTokenOnACommandLine()
        try setup.expectNoTokenPrinted()
    }

    /// The sign-in for every Dropbox remote (no `--remote`): its own item in the keyring,
    /// which a remote without a sign-in of its own syncs with.
    @Test func theSignInForEveryRemoteIsInTheKeyringToo() throws {
        let keyring = try Keyring()
        let setup = keyring.setup
        // No remote names the stand-in's address here: --api-base does.
        let apiBase = ["--api-base", setup.standIn.apiBase.absoluteString]
        let code = try setup.standIn.authorize(try setup.beginSignIn(apiBase))
        let finish = try setup.bibread(["login", "dropbox", "--code=\(code)"] + apiBase, environment: keyring.environment)
        #expect(finish.status == 0, "\(finish.standardError)")
        #expect(finish.standardOutput.contains("the sign-in is kept in the Secret Service keyring"), "\(finish.standardOutput)")
        let token = try #require(try setup.standIn.issued().refreshTokens.first)
        let lookup = try keyring.session.secretTool(["lookup", "application", "bibread", "kind", "dropbox-refresh-token",
                                                     "remote", ".every-dropbox-remote"])
        Self.expectSame(lookup.standardOutput, token, "the keyring holds the shared sign-in's token")
        #expect(try !keyring.holdsAToken(), "not the item of remote 'box'")
        Self.expectAbsent(setup.credentialsText, token, "the refresh token is not in the credentials file")
        let sync = try setup.bibread(["sync", "box"], environment: keyring.environment)
        #expect(sync.status == 0, "\(sync.standardError)")
        let logout = try setup.bibread(["logout", "dropbox"] + apiBase, environment: keyring.environment)
        #expect(logout.status == 0, "\(logout.standardError)")
        #expect(try keyring.session.secretTool(["lookup", "application", "bibread", "remote", ".every-dropbox-remote"]).status == 1)
        try keyring.expectNoTokenOnACommandLine()
        try setup.expectNoTokenPrinted()
    }

    @Test func logoutRevokesAndRemovesTheTokenFromTheKeyring() throws {
        let keyring = try Keyring()
        let setup = keyring.setup
        try setup.signIn(environment: keyring.environment)
        #expect(try keyring.holdsAToken())
        let logout = try setup.bibread(["logout", "dropbox", "--remote", "box"], environment: keyring.environment)
        #expect(logout.status == 0, "\(logout.standardError)")
        #expect(setup.standIn.requests.contains("POST /2/auth/token/revoke"))
        #expect(try !keyring.holdsAToken(), "the keyring no longer holds the token")
        #expect(!setup.credentialsText.contains("appKey"), "\(setup.credentialsText)")
        let notSignedIn = try setup.bibread(["sync", "box"], environment: keyring.environment)
        #expect(notSignedIn.status == 1)
        #expect(notSignedIn.standardError.contains("run `bibread login dropbox --remote box`"), "\(notSignedIn.standardError)")
        try keyring.expectNoTokenOnACommandLine()
        try setup.expectNoTokenPrinted()
    }

    /// `BIBREAD_KEYRING=off`: the file, as before the keyring; a sign-in kept in the file then
    /// works with the keyring on, and its logout leaves nothing in either.
    @Test func withTheKeyringSwitchedOffTheFileKeepsTheToken() throws {
        let keyring = try Keyring()
        let setup = keyring.setup
        let off = keyring.environment.merging(["BIBREAD_KEYRING": "off"]) { $1 }
        let finish = try setup.signIn(environment: off)
        #expect(finish.standardOutput.contains("kept in \(setup.credentialsFile.path), which only you may read"), "\(finish.standardOutput)")
        let token = try #require(try setup.standIn.issued().refreshTokens.first)
        Self.expectPresent(setup.credentialsText, token, "the credentials file holds the refresh token")
        #expect(try !keyring.holdsAToken())
        #expect(keyring.secretToolCommandLines.isEmpty, "\(keyring.secretToolCommandLines)")

        let sync = try setup.bibread(["sync", "box"], environment: keyring.environment)
        #expect(sync.status == 0, "\(sync.standardError)")
        let logout = try setup.bibread(["logout", "dropbox", "--remote", "box"], environment: keyring.environment)
        #expect(logout.status == 0, "\(logout.standardError)")
        Self.expectAbsent(setup.credentialsText, token, "the refresh token is not in the credentials file")
        #expect(try !keyring.holdsAToken())
        try setup.expectNoTokenPrinted()
    }

    /// A session bus with no Secret Service on it: the file.
    @Test func aBusWithoutASecretServiceMeansTheFile() throws {
        let keyring = try Keyring(withKeyring: false)
        let setup = keyring.setup
        let finish = try setup.signIn(environment: keyring.environment)
        #expect(finish.standardOutput.contains("kept in \(setup.credentialsFile.path), which only you may read"), "\(finish.standardOutput)")
        let token = try #require(try setup.standIn.issued().refreshTokens.first)
        Self.expectPresent(setup.credentialsText, token, "the credentials file holds the refresh token")
        let sync = try setup.bibread(["sync", "box"], environment: keyring.environment)
        #expect(sync.status == 0, "\(sync.standardError)")
        try setup.expectNoTokenPrinted()
    }

    /// A bus address whose socket accepts and never answers (a hung D-Bus): after a few
    /// seconds secret-tool is killed and the sign-in goes to the file.
    @Test func aBusThatNeverAnswersDoesNotHoldTheSignInUp() throws {
        let keyring = try Keyring(withKeyring: false)
        let setup = keyring.setup
        let socket = setup.root.appendingPathComponent("silent-bus")
        let silent = try ServerProcess.spawn("python3", ["-c", """
            import socket, sys, time
            s = socket.socket(socket.AF_UNIX)
            s.bind(sys.argv[1])
            s.listen(16)
            time.sleep(600)
            """, socket.path], logPath: setup.root.appendingPathComponent("silent-bus.log").path)
        defer { silent.stop() }
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: socket.path) && Date() < deadline { usleep(20_000) }
        let environment = keyring.environment.merging(["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(socket.path)"]) { $1 }
        let started = Date()
        let finish = try setup.signIn(environment: environment)
        let took = Date().timeIntervalSince(started)
        #expect(finish.standardOutput.contains("kept in \(setup.credentialsFile.path)"), "\(finish.standardOutput)")
        #expect(took < 30, "the sign-in took \(took) s")
        #expect(keyring.secretToolCommandLines.count == 1, "only the probe ran: \(keyring.secretToolCommandLines)")
    }

    /// The token is in the keyring, and the keyring is gone (the bus stopped; then no bus at
    /// all): one clear message, status 1; logout says the same and forgets nothing.
    @Test func aTokenInAKeyringThatCannotBeReachedSaysSoOnce() throws {
        let keyring = try Keyring()
        let setup = keyring.setup
        try setup.signIn(environment: keyring.environment)
        keyring.session.stop()
        let kept = setup.credentialsText
        for environment in [keyring.environment, keyring.environment.merging(["DBUS_SESSION_BUS_ADDRESS": ""]) { $1 }] {
            let sync = try setup.bibread(["sync", "box"], environment: environment)
            #expect(sync.status == 1)
            let message = "the Dropbox sign-in is kept in the Secret Service keyring, which cannot be reached now"
            #expect(sync.standardError.components(separatedBy: message).count == 2, "\(sync.standardError)")
            #expect(sync.standardError.contains("run `bibread login dropbox --remote box` again"), "\(sync.standardError)")
            let logout = try setup.bibread(["logout", "dropbox", "--remote", "box"], environment: environment)
            #expect(logout.status == 1)
            #expect(logout.standardError.contains("is kept in the Secret Service keyring, which cannot be reached now"), "\(logout.standardError)")
            #expect(logout.standardError.contains("run `bibread logout dropbox --remote box` again"), "\(logout.standardError)")
            #expect(setup.credentialsText == kept, "nothing is forgotten")
        }
        try setup.expectNoTokenPrinted()
    }
}
