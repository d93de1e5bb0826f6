import BibModel
import Checksums
import Foundation

/// Dropbox's OAuth 2 for an app that keeps no secret: the authorization-code flow with PKCE
/// (RFC 7636, `S256`) and `token_access_type=offline`, so that the code is exchanged with the
/// code verifier and the app key only, and the answer holds a refresh token that gets new
/// short-lived access tokens. The token endpoint and `2/auth/token/revoke` are on the API base
/// (`https://api.dropboxapi.com`); the page the user allows the app on is on
/// `https://www.dropbox.com`, or on the API base when that is not Dropbox's (a stand-in).
///
/// Tokens never appear in what this throws: a refusal carries Dropbox's `error` and
/// `error_description`, cleaned of control characters.
public struct DropboxOAuth: Sendable {
    /// The app key (`client_id`) from Dropbox's App Console.
    public let appKey: String
    let apiBase: String
    let session: CurlSession

    public init(appKey: String, apiBase: String, session: CurlSession) {
        self.appKey = appKey
        self.apiBase = apiBase.hasSuffix("/") ? String(apiBase.dropLast()) : apiBase
        self.session = session
    }

    /// A new code verifier: 32 random bytes from the system's generator, base64url without
    /// padding (43 characters of RFC 7636's unreserved set).
    public static func newVerifier() -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The `S256` challenge of `verifier`: base64url without padding of its SHA-256.
    public static func challenge(for verifier: String) -> String {
        base64URL(SHA256.digest(of: Array(verifier.utf8)))
    }

    /// The address the user opens to allow the app; without a `redirect_uri` Dropbox then shows
    /// the code to paste.
    public func authorizationURL(challenge: String) -> String {
        let host = apiBase == "https://api.dropboxapi.com" ? "https://www.dropbox.com" : apiBase
        return host + "/oauth2/authorize?" + Self.form([("client_id", appKey), ("response_type", "code"),
                                                        ("code_challenge", challenge), ("code_challenge_method", "S256"),
                                                        ("token_access_type", "offline")])
    }

    /// Exchanges the pasted `code` and the `verifier` its challenge was made from for a refresh
    /// token and a first access token.
    public func exchange(code: String, verifier: String) throws -> (refreshToken: String, access: DropboxAccessToken) {
        let answer = try token([("grant_type", "authorization_code"), ("code", code), ("code_verifier", verifier), ("client_id", appKey)],
                               refusal: { DropboxAuthError.codeRefused($0) })
        guard let refresh = answer["refresh_token"] as? String, !refresh.isEmpty, let access = Self.accessToken(in: answer) else {
            throw DropboxAuthError.unexpectedAnswer("its answer holds no refresh token (was the app allowed offline access?)")
        }
        return (refresh, access)
    }

    /// A new access token for `refreshToken`; ``DropboxAuthError/signInRevoked(command:)`` when Dropbox no
    /// longer accepts it (`invalid_grant`: revoked, or the app was removed from the account).
    public func refresh(_ refreshToken: String) throws -> DropboxAccessToken {
        let answer = try token([("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", appKey)],
                               refusal: { $0.hasPrefix("invalid_grant") ? .signInRevoked(command: "") : .refused($0) })
        guard let access = Self.accessToken(in: answer) else {
            throw DropboxAuthError.unexpectedAnswer("its answer holds no access token")
        }
        return access
    }

    /// Revokes `accessToken` at Dropbox, and with it the refresh token it came from
    /// (`2/auth/token/revoke`).
    public func revoke(accessToken: String) throws {
        let response = try session.perform(TransferRequest(url: apiBase + "/2/auth/token/revoke", method: "POST",
                                                           headers: ["Content-Type: application/json"], body: Array("null".utf8),
                                                           credentials: .bearer(accessToken)))
        guard response.status == 200 else {
            throw DropboxAuthError.unexpectedAnswer("revoking answered HTTP \(response.status)")
        }
    }

    /// A POST to `/oauth2/token` with a form; its JSON answer, or the error `refusal` makes of a
    /// 400's `error: error_description`.
    private func token(_ fields: [(String, String)], refusal: (String) -> DropboxAuthError) throws -> [String: Any] {
        let response = try session.perform(TransferRequest(url: apiBase + "/oauth2/token", method: "POST",
                                                           headers: ["Content-Type: application/x-www-form-urlencoded"],
                                                           body: Array(Self.form(fields).utf8)))
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        switch response.status {
        case 200:
            guard let object else { throw DropboxAuthError.unexpectedAnswer("its answer is not JSON") }
            return object
        case 400, 401:
            let error = object?["error"] as? String ?? "HTTP \(response.status)"
            let detail = (object?["error_description"] as? String).map { ": " + $0 } ?? ""
            throw refusal(TerminalText.cleanedLine(String((error + detail).prefix(200))))
        default:
            throw DropboxAuthError.unexpectedAnswer("the token endpoint answered HTTP \(response.status)")
        }
    }

    private static func accessToken(in answer: [String: Any]) -> DropboxAccessToken? {
        guard let value = answer["access_token"] as? String, !value.isEmpty else { return nil }
        let lifetime = (answer["expires_in"] as? NSNumber)?.doubleValue
        return DropboxAccessToken(value: value, expires: lifetime.map { Date().addingTimeInterval($0) }, lifetime: lifetime)
    }

    /// `application/x-www-form-urlencoded`: every byte but RFC 3986's unreserved ones escaped.
    static func form(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~")
        return fields.map { key, value in
            "\(key)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
    }

    private static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

/// A short-lived access token and when it expires (nil: Dropbox gave no `expires_in`).
public struct DropboxAccessToken: Sendable {
    public let value: String
    public let expires: Date?
    /// `expires_in`, in seconds.
    public let lifetime: Double?
}
