import ArgumentParser
import BibreadServices
import Foundation
import SyncEngine

/// `bibread login dropbox`: signs in to Dropbox with OAuth 2's authorization-code flow and PKCE,
/// so that bibread keeps no app secret: the address to allow the app at, the code Dropbox shows
/// there, exchanged with the code verifier for a refresh token kept in the credentials file.
struct LoginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to Dropbox, so that Dropbox remotes need no token.",
        discussion: """
        Prints an address (and opens it when there is a display): allow bibread there, then \
        paste the code Dropbox shows. Only a refresh token is kept: in the Secret Service \
        keyring when one is running (GNOME Keyring, KeePassXC; not with BIBREAD_KEYRING=off), \
        else in $XDG_CONFIG_HOME/bibread/secrets/credentials.json (only you may read it); the \
        short-lived access tokens are renewed from it when needed. Needs the app key of your \
        Dropbox app: dropbox_app_key in config.toml, or --app-key. With --remote the sign-in is \
        that remote's; without, it is for every Dropbox remote that has none of its own and no \
        token_env or token_command. When standard input ends before a code, the sign-in waits: \
        give the code later with --code=CODE (a code may start with '-').
        """)

    @OptionGroup var target: DropboxTargetOptions

    @Option(help: ArgumentHelp("The code Dropbox showed, for a sign-in begun earlier (scripts).", valueName: "code"))
    var code: String?

    @Option(help: ArgumentHelp("The app key of your Dropbox app (default: dropbox_app_key in config.toml).", valueName: "key"))
    var appKey: String?

    func run() throws {
        let config = Config.load(from: Directories().config)
        let target = try self.target.resolve(config: config)
        let store = CredentialStore()
        let session = try CurlSession()
        if let code {
            try finish(code: code, target: target, store: store, session: session)
            return
        }
        guard let appKey = (appKey ?? config.dropboxAppKey).flatMap({ $0.isEmpty ? nil : $0 }) else {
            Console.error("bibread: signing in to Dropbox needs the app key of your Dropbox app: set dropbox_app_key = \"…\" in \(Directories().config.appendingPathComponent("config.toml").path) (the README says how to make one), or give --app-key")
            throw ExitCode(64)
        }
        let verifier = DropboxOAuth.newVerifier()
        try keep { try store.setPendingDropboxLogin(.init(verifier: verifier, appKey: appKey), for: target.name) }
        let address = DropboxOAuth(appKey: appKey, apiBase: target.apiBase, session: session)
            .authorizationURL(challenge: DropboxOAuth.challenge(for: verifier))
        Console.error("Open this address, allow bibread, and copy the code Dropbox shows:")
        Console.print(address)
        Self.openInBrowser(address)
        Console.errorRaw("Code: ")
        guard let line = readLine()?.trimmingCharacters(in: .whitespaces), !line.isEmpty else {
            Console.error("")
            Console.error("No code was read. When you have it: \(target.command) --code=CODE")
            return
        }
        try finish(code: line, target: target, store: store, session: session)
    }

    /// Exchanges `code` with the verifier of the sign-in begun for `target`, and keeps the
    /// refresh token.
    private func finish(code: String, target: DropboxTarget, store: CredentialStore, session: CurlSession) throws {
        guard let pending = store.pendingDropboxLogin(for: target.name) else {
            Console.error("bibread: no Dropbox sign-in was begun \(target.subject): run `\(target.command)` first, open the address it prints, then give the code")
            throw ExitStatus.problems
        }
        let refreshToken: String
        do {
            refreshToken = try DropboxOAuth(appKey: pending.appKey, apiBase: target.apiBase, session: session)
                .exchange(code: code, verifier: pending.verifier).refreshToken
        } catch {
            Console.error("bibread: \(ErrorText.plain(error)); open the address again for a new code, or run `\(target.command)` for a new address")
            throw ExitStatus.problems
        }
        var place = CredentialStore.TokenPlace.file
        try keep { place = try store.setDropboxLogin(.init(refreshToken: refreshToken, appKey: pending.appKey), for: target.name) }
        switch place {
        case .keyring:
            Console.print("Signed in to Dropbox \(target.subject); the sign-in is kept in the Secret Service keyring.")
        case .file:
            Console.print("Signed in to Dropbox \(target.subject); the sign-in is kept in \(store.file.path), which only you may read.")
        }
    }

    /// Runs a change of the credentials file; its failure is a message and status 1.
    private func keep(_ change: () throws -> Void) throws {
        do {
            try change()
        } catch {
            Console.error("bibread: cannot keep the Dropbox sign-in in \(CredentialStore().file.path): \(ErrorText.plain(error))")
            throw ExitStatus.problems
        }
    }

    /// Opens `address` with xdg-open when there is a display; nothing happens when it cannot.
    private static func openInBrowser(_ address: String) {
        let environment = ProcessInfo.processInfo.environment
        guard !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", address]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }
}

/// `bibread logout dropbox`: revokes the kept sign-in at Dropbox and forgets it.
struct LogoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Revoke bibread's Dropbox sign-in at Dropbox and forget it here.",
        discussion: """
        With --remote, that remote's sign-in; without, the one for every Dropbox remote. When \
        Dropbox cannot be reached, the sign-in is still forgotten here, and the message says \
        where to revoke it.
        """)

    @OptionGroup var target: DropboxTargetOptions

    func run() throws {
        let config = Config.load(from: Directories().config)
        let target = try self.target.resolve(config: config)
        let store = CredentialStore()
        let kept: CredentialStore.DropboxLogin?
        do {
            kept = try store.dropboxLogin(for: target.name)
        } catch RemoteError.keyringUnreachable {
            throw Self.keyringUnreachable(target)
        }
        guard let login = kept else {
            Console.error("bibread: no Dropbox sign-in is kept \(target.subject)")
            throw ExitStatus.problems
        }
        var failure: String?
        do {
            let oauth = DropboxOAuth(appKey: login.appKey, apiBase: target.apiBase, session: try CurlSession())
            try oauth.revoke(accessToken: try oauth.refresh(login.refreshToken).value)
        } catch DropboxAuthError.signInRevoked {
            // Revoked already (at dropbox.com): nothing to tell Dropbox.
        } catch {
            failure = ErrorText.plain(error)
        }
        do {
            try store.removeDropboxLogin(for: target.name)
        } catch RemoteError.keyringUnreachable {
            throw Self.keyringUnreachable(target)
        } catch {
            Console.error("bibread: cannot forget the Dropbox sign-in in \(store.file.path): \(ErrorText.plain(error))")
            throw ExitStatus.problems
        }
        if let failure {
            Console.error("bibread: the Dropbox sign-in \(target.subject) is forgotten here, but Dropbox could not be told to revoke it (\(failure)); remove the app at https://www.dropbox.com/account/connected_apps")
            throw ExitStatus.problems
        }
        Console.print("Signed out of Dropbox \(target.subject): the sign-in is revoked at Dropbox and forgotten here.")
    }

    /// Says that the sign-in's token is in the keyring, which cannot be reached now (nothing is
    /// revoked or forgotten); the status to end with.
    private static func keyringUnreachable(_ target: DropboxTarget) -> ExitCode {
        Console.error("bibread: the Dropbox sign-in \(target.subject) is kept in the Secret Service keyring, which cannot be reached now: "
                      + "unlock the keyring (log in to the desktop session) and run `bibread logout dropbox"
                      + (target.name.map { " --remote \($0)" } ?? "") + "` again")
        return ExitStatus.problems
    }
}

/// The service and `--remote` that `login` and `logout` share.
struct DropboxTargetOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The service to sign in to: dropbox.", valueName: "service"))
    var service: String

    @Option(help: ArgumentHelp("The Dropbox remote (config.toml's name, or a dropbox: URL) the sign-in is for (default: every Dropbox remote without its own).", valueName: "name"))
    var remote: String?

    @Option(help: .hidden)
    var apiBase: String?

    func validate() throws {
        guard service == "dropbox" else {
            throw ValidationError("bibread signs in to Dropbox only ('dropbox'); other remotes take their credentials from config.toml, the URL or ~/.netrc")
        }
    }

    /// The remote (or every Dropbox remote) the sign-in is for.
    func resolve(config: Config) throws -> DropboxTarget {
        guard let remote else {
            return DropboxTarget(name: nil, apiBase: apiBase ?? Remote(name: "", kind: .dropbox, url: "").apiBase)
        }
        let resolved = try RemoteResolution.remote(named: remote, config: config)
        guard resolved.kind == .dropbox else {
            Console.error("bibread: remote '\(resolved.name)' is not a Dropbox remote (its url does not start with dropbox:)")
            throw ExitCode(64)
        }
        return DropboxTarget(name: resolved.name, apiBase: apiBase ?? resolved.apiBase)
    }
}

/// What a Dropbox sign-in is for: one remote (`name`) or every Dropbox remote (nil), and the API
/// it signs in at.
struct DropboxTarget {
    let name: String?
    let apiBase: String

    /// The command that begins this sign-in.
    var command: String { "bibread login dropbox" + (name.map { " --remote \($0)" } ?? "") }

    /// "for remote 'lab'", or "for every Dropbox remote".
    var subject: String { name.map { "for remote '\($0)'" } ?? "for every Dropbox remote without its own" }
}
