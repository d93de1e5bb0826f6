import BibreadTestSupport
import Foundation
import Testing

/// `bibread login dropbox` and `logout`: Dropbox's authorization-code flow with PKCE and no
/// secret, against the Dropbox stand-in (`Tests/Servers/dropbox_standin.py`), which checks the
/// code verifier against the challenge, issues refresh and short-lived access tokens, expires
/// and revokes them.
@Suite("bibread login dropbox")
struct DropboxLoginTests {
    /// The sample library in the stand-in's Dropbox under /Papers, config.toml naming it as the
    /// remote `box` with the stand-in's app key, and this machine's XDG folders.
    final class Setup {
        let root: URL
        let standIn: DropboxStandIn
        let environment: [String: String]
        /// Every output of bibread so far (to check that no token is ever printed).
        private(set) var outputs: [String] = []

        init(tokenLifetime: Int = 14400) throws {
            root = try Fixtures.temporaryDirectory()
            let account = root.appendingPathComponent("account")
            try Fixtures.copySampleLibrary(to: account.appendingPathComponent("Papers"))
            // The stand-in's fixed token is never given to bibread.
            standIn = try DropboxStandIn.start(root: account, token: "fixed-\(UUID().uuidString)", tokenLifetime: tokenLifetime)
            // No display: xdg-open is not run.
            environment = Fixtures.isolatedEnvironment(under: root).merging(["DISPLAY": "", "WAYLAND_DISPLAY": ""]) { $1 }
            let folder = root.appendingPathComponent("config/bibread")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try """
                dropbox_app_key = "\(DropboxStandIn.defaultAppKey)"

                [[remote]]
                name = "box"
                url = "dropbox:/Papers"
                api_base = "\(standIn.apiBase.absoluteString)"
                """.write(to: folder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        }

        deinit {
            standIn.stop()
            try? FileManager.default.removeItem(at: root)
        }

        var credentialsFile: URL { root.appendingPathComponent("config/bibread/secrets/credentials.json") }

        func bibread(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ProcessResult {
            let result = try ProcessRunner.bibread(arguments, environment: environment.merging(extra) { $1 })
            outputs += [result.standardOutput, result.standardError]
            return result
        }

        /// The authorization address `bibread login dropbox` printed (its standard input at its
        /// end, as in a script: it keeps the verifier and says how to give the code later).
        func beginSignIn(_ extra: [String] = ["--remote", "box"]) throws -> String {
            let begin = try bibread(["login", "dropbox"] + extra)
            #expect(begin.status == 0, "\(begin.standardError)")
            let address = begin.standardOutput.split(separator: "\n").map(String.init).first { $0.hasPrefix("http") }
            guard let address else { throw SignInTestError("no address in: \(begin.standardOutput)") }
            return address
        }

        /// Signs in as a user does: the address, the code the stand-in shows there, `--code`
        /// (given as `--code=CODE`: a code may start with `-`), with `extra` variables; what
        /// the last step printed.
        @discardableResult
        func signIn(environment extra: [String: String] = [:]) throws -> ProcessResult {
            let code = try standIn.authorize(try beginSignIn())
            let finish = try bibread(["login", "dropbox", "--remote", "box", "--code=\(code)"], environment: extra)
            #expect(finish.status == 0, "\(finish.standardError)")
            #expect(finish.standardOutput.contains("Signed in to Dropbox for remote 'box'"), "\(finish.standardOutput)")
            return finish
        }

        /// No token the stand-in issued (nor its fixed one) in anything bibread printed.
        func expectNoTokenPrinted(sourceLocation: SourceLocation = #_sourceLocation) throws {
            let issued = try standIn.issued()
            for token in issued.accessTokens + issued.refreshTokens + [standIn.token] {
                // The message names the token by its start only, so that a failure prints no secret.
                #expect(!outputs.contains { $0.contains(token) }, "a token starting \(token.prefix(6)) was printed",
                        sourceLocation: sourceLocation)
            }
        }

        var credentialsText: String { (try? String(contentsOf: credentialsFile, encoding: .utf8)) ?? "" }
    }

    @Test func signInWithTheCodeKeepsOnlyTheRefreshTokenPrivatelyAndSyncs() throws {
        let setup = try Setup()
        try setup.signIn()
        let issued = try setup.standIn.issued()
        #expect(issued.refreshTokens.count == 1)
        let file = try FileManager.default.attributesOfItem(atPath: setup.credentialsFile.path)
        #expect((file[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: setup.credentialsFile.deletingLastPathComponent().path)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
        let kept = setup.credentialsText
        #expect(issued.refreshTokens.allSatisfy { kept.contains($0) }, "the refresh token is kept")
        #expect(!issued.accessTokens.contains { kept.contains($0) }, "no access token is kept")
        #expect(!kept.contains("verifier"), "the sign-in begun is over")
        #expect(setup.standIn.requests.contains("POST /oauth2/token"))

        let sync = try setup.bibread(["sync", "box", "--all-pdfs"])
        #expect(sync.status == 0, "\(sync.standardError)")
        #expect(sync.standardError.contains("library.bib: updated"), "\(sync.standardError)")
        #expect(sync.standardError.contains("Done:"))
        try setup.expectNoTokenPrinted()
    }

    /// As a user signs in: bibread prints the address and waits; the code is pasted on its
    /// standard input.
    @Test func theCodePastedOnStandardInputSignsIn() throws {
        let setup = try Setup()
        let process = Process()
        process.executableURL = ProcessRunner.bibreadExecutable
        process.arguments = ["login", "dropbox", "--remote", "box"]
        process.environment = ProcessInfo.processInfo.environment.merging(setup.environment) { $1 }
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The address is the first line on standard output; bibread waits for the code meanwhile.
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed.append(chunk)
        }
        let address = String(decoding: printed, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        let code = try setup.standIn.authorize(address)
        input.fileHandleForWriting.write(Data((code + "\n").utf8))
        try input.fileHandleForWriting.close()
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        let messages = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(messages)")
        #expect(messages.contains("Code: "), "\(messages)")
        #expect(String(decoding: rest, as: UTF8.self).contains("Signed in to Dropbox for remote 'box'"))
        #expect(setup.credentialsText.contains("refreshToken"))
        let sync = try setup.bibread(["sync", "box"])
        #expect(sync.status == 0, "\(sync.standardError)")
    }

    @Test func aCodeMadeForAnotherChallengeIsRefusedByThePKCECheck() throws {
        let setup = try Setup()
        let address = try setup.beginSignIn()
        // The code of a sign-in whose challenge is not the one of bibread's verifier (what an
        // intercepted code is to an attacker without the verifier).
        guard var components = URLComponents(string: address) else { throw SignInTestError("not a URL: \(address)") }
        components.queryItems = components.queryItems?.map {
            $0.name == "code_challenge" ? URLQueryItem(name: $0.name, value: String(repeating: "A", count: 43)) : $0
        }
        let code = try setup.standIn.authorize(components.string ?? "")
        let finish = try setup.bibread(["login", "dropbox", "--remote", "box", "--code=\(code)"])
        #expect(finish.status == 1)
        #expect(finish.standardError.contains("Dropbox refused the code (invalid_grant: invalid code verifier)"), "\(finish.standardError)")
        #expect(!setup.credentialsText.contains("refreshToken"), "nothing is kept")
        // The right code for bibread's own challenge still works (the verifier was kept).
        let good = try setup.standIn.authorize(try setup.beginSignIn())
        #expect(try setup.bibread(["login", "dropbox", "--remote", "box", "--code=\(good)"]).status == 0)
        try setup.expectNoTokenPrinted()
    }

    /// The token expires at the first call of the sync, at the .bib's download, at the listings,
    /// at the reading state's exchange, at PDFs downloaded in parallel (the sync makes about ten
    /// calls; the request log the failure prints says which call each case hit).
    @Test(arguments: [0, 1, 2, 3, 5, 8])
    func anAccessTokenThatExpiresMidSyncIsRenewedUnnoticed(afterRequests: Int) throws {
        let setup = try Setup()
        try setup.signIn()
        let grantsBefore = try setup.standIn.issued().refreshGrants
        try setup.standIn.expireTokens(afterRequests: afterRequests)
        let sync = try setup.bibread(["sync", "box", "--all-pdfs"])
        #expect(sync.status == 0, "\(sync.standardError)")
        #expect(sync.standardError.contains("library.bib: updated"), "\(sync.standardError)")
        #expect(!sync.standardError.contains("401"), "\(sync.standardError)")
        #expect(!sync.standardError.lowercased().contains("failed"), "\(sync.standardError)")
        // The token was refused once, mid-sync, and renewed: two refresh grants (the start, the renewal).
        let log = (try? String(contentsOfFile: setup.standIn.logPath, encoding: .utf8)) ?? ""
        #expect(log.contains("HTTP/1.1\" 401"), "the stand-in refused no token: \(setup.standIn.requests)")
        #expect(try setup.standIn.issued().refreshGrants - grantsBefore == 2)
        // Every PDF of the sample library arrived.
        let cached = try FileManager.default.subpathsOfDirectory(atPath: setup.root.appendingPathComponent("cache/bibread/box").path)
            .filter { $0.hasSuffix(".pdf") }
        let served = try FileManager.default.subpathsOfDirectory(atPath: setup.standIn.root.appendingPathComponent("Papers").path)
            .filter { $0.hasSuffix(".pdf") }
        #expect(Set(cached) == Set(served), "\(served.count) served, \(cached.count) cached")
        try setup.expectNoTokenPrinted()
    }

    @Test func aRevokedSignInSaysOnceToSignInAgain() throws {
        let setup = try Setup()
        try setup.signIn()
        try setup.standIn.revokeAll()
        let sync = try setup.bibread(["sync", "box", "--all-pdfs"])
        #expect(sync.status == 1)
        let advice = "run `bibread login dropbox --remote box` again"
        #expect(sync.standardError.components(separatedBy: advice).count == 2, "\(sync.standardError)")
        #expect(sync.standardError.contains("Dropbox no longer accepts bibread's sign-in"), "\(sync.standardError)")
        try setup.expectNoTokenPrinted()
    }

    @Test func logoutRevokesTheSignInAtDropboxAndForgetsIt() throws {
        let setup = try Setup()
        try setup.signIn()
        let kept = setup.credentialsText
        let logout = try setup.bibread(["logout", "dropbox", "--remote", "box"])
        #expect(logout.status == 0, "\(logout.standardError)")
        #expect(setup.standIn.requests.contains("POST /2/auth/token/revoke"))
        #expect(!setup.credentialsText.contains("refreshToken"), "\(setup.credentialsText.count) bytes left")
        let notSignedIn = try setup.bibread(["sync", "box"])
        #expect(notSignedIn.status == 1)
        #expect(notSignedIn.standardError.contains("run `bibread login dropbox --remote box`"), "\(notSignedIn.standardError)")
        // The old refresh token, put back, is refused by Dropbox: it was revoked, not only forgotten.
        try kept.write(to: setup.credentialsFile, atomically: true, encoding: .utf8)
        let revoked = try setup.bibread(["sync", "box"])
        #expect(revoked.status == 1)
        #expect(revoked.standardError.contains("Dropbox no longer accepts bibread's sign-in"), "\(revoked.standardError)")
        try setup.expectNoTokenPrinted()
    }

    @Test func signInWithoutAnAppKeySaysWhereToSetIt() throws {
        let setup = try Setup()
        try "".write(to: setup.root.appendingPathComponent("config/bibread/config.toml"), atomically: true, encoding: .utf8)
        let begin = try setup.bibread(["login", "dropbox"])
        #expect(begin.status == 64)
        #expect(begin.standardError.contains("dropbox_app_key"), "\(begin.standardError)")
    }
}

/// A step of a sign-in test that could not go on.
struct SignInTestError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
