import BibModel
import Foundation

/// Keeps credentials out of messages.
enum Redaction {
    /// `url` without the `user:password@` part of its authority.
    static func removingUserinfo(from url: String) -> String {
        guard let userinfo = userinfo(of: url) else { return url }
        return url.replacingOccurrences(of: userinfo + "@", with: "")
    }

    /// A message from curl about `request`, with its URL's userinfo and its secrets removed.
    static func scrub(_ message: String, for request: TransferRequest) -> String {
        var message = message
        if let userinfo = userinfo(of: request.url) {
            message = message.replacingOccurrences(of: userinfo + "@", with: "")
            message = message.replacingOccurrences(of: userinfo, with: "***")
        }
        for secret in secrets(of: request.credentials) where secret.count >= 4 {
            message = message.replacingOccurrences(of: secret, with: "***")
        }
        return message
    }

    private static func secrets(of credentials: TransferCredentials) -> [String] {
        switch credentials {
        case .none, .netrc: []
        case .basic(_, let password): [password]
        case .bearer(let token): [token]
        case .ssh(_, _, _, let passphrase, _): passphrase.map { [$0] } ?? []
        }
    }

    /// The `user:password` before the host, if the URL has one.
    private static func userinfo(of url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return nil }
        let userinfo = authority[..<at]
        return userinfo.isEmpty ? nil : String(userinfo)
    }
}
