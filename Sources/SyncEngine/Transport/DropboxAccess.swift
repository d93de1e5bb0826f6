import Foundation

/// The bearer token a ``DropboxTransport`` sends: a fixed one (`token_env`, `token_command`,
/// `$BIBREAD_DROPBOX_TOKEN`), or the short-lived access tokens of a sign-in kept by
/// `bibread login dropbox`, got from its refresh token when first needed, again shortly before
/// one expires (`expires_in`), and again when Dropbox answers 401 to one (its
/// `expired_access_token`): the request is then sent once more, so the user never notices.
///
/// Access tokens live in memory only, shared by the transports of one process. A refresh token
/// Dropbox no longer accepts throws ``DropboxAuthError/signInRevoked(command:)``.
public final class DropboxAccess: @unchecked Sendable {
    private struct Refreshing {
        let oauth: DropboxOAuth
        let refreshToken: String
        /// The command that signs in again (`bibread login dropbox --remote lab`).
        let signInCommand: String
    }

    private let lock = NSLock()
    private let fixed: String?
    private let refreshing: Refreshing?

    /// A fixed token, sent as it is.
    public init(token: String) {
        fixed = token
        refreshing = nil
    }

    /// The access tokens of a kept sign-in; `signInCommand` is what a user runs to sign in again.
    public init(login: CredentialStore.DropboxLogin, apiBase: String, session: CurlSession, signInCommand: String) {
        fixed = nil
        refreshing = Refreshing(oauth: DropboxOAuth(appKey: login.appKey, apiBase: apiBase, session: session),
                                refreshToken: login.refreshToken, signInCommand: signInCommand)
    }

    /// The token to send now (a kept sign-in's renewed first when it is about to expire).
    public func token() throws -> String {
        if let fixed { return fixed }
        lock.lock()
        defer { lock.unlock() }
        if let current = AccessTokenCache.shared[refreshingToken], !Self.isExpiring(current) { return current.value }
        return try renewLocked()
    }

    /// After Dropbox refused `rejected` (401): whether there is a new token to send the request
    /// with (renewed now, or by another request meanwhile). False for a fixed token.
    public func renew(after rejected: String) throws -> Bool {
        guard fixed == nil else { return false }
        lock.lock()
        defer { lock.unlock() }
        if let current = AccessTokenCache.shared[refreshingToken], current.value != rejected { return true }
        _ = try renewLocked()
        return true
    }

    /// Whether this access renews its tokens (a kept sign-in).
    public var renews: Bool { refreshing != nil }

    private var refreshingToken: String { refreshing?.refreshToken ?? "" }

    private func renewLocked() throws -> String {
        guard let refreshing else { return fixed ?? "" }
        do {
            let access = try refreshing.oauth.refresh(refreshing.refreshToken)
            AccessTokenCache.shared[refreshing.refreshToken] = access
            return access.value
        } catch DropboxAuthError.signInRevoked {
            AccessTokenCache.shared[refreshing.refreshToken] = nil
            throw DropboxAuthError.signInRevoked(command: refreshing.signInCommand)
        }
    }

    /// Whether `token` expires within a tenth of its lifetime (at most five minutes) from now.
    private static func isExpiring(_ token: DropboxAccessToken) -> Bool {
        guard let expires = token.expires else { return false }
        let margin = min(300, (token.lifetime ?? 0) / 10)
        return expires.timeIntervalSinceNow <= margin
    }
}

/// The access tokens of this process, by refresh token.
private final class AccessTokenCache: @unchecked Sendable {
    static let shared = AccessTokenCache()
    private let lock = NSLock()
    private var tokens: [String: DropboxAccessToken] = [:]

    subscript(refreshToken: String) -> DropboxAccessToken? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return tokens[refreshToken]
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            tokens[refreshToken] = newValue
        }
    }
}
