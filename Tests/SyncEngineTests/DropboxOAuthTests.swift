import BibreadTestSupport
import Foundation
import SyncEngine
import Testing

/// `DropboxOAuth` and `DropboxAccess` against RFC 7636 and the Dropbox stand-in.
@Suite("Dropbox OAuth with PKCE")
struct DropboxOAuthTests {
    @Test func theChallengeIsRFC7636sS256() {
        // RFC 7636, Appendix B.
        #expect(DropboxOAuth.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test func verifiersAreFreshAndOfTheUnreservedSet() {
        let verifiers = (0..<50).map { _ in DropboxOAuth.newVerifier() }
        #expect(Set(verifiers).count == 50)
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        #expect(verifiers.allSatisfy { $0.count == 43 && $0.allSatisfy(unreserved.contains) })
    }

    @Test func theAddressAsksForACodeWithTheChallengeAndOfflineAccess() throws {
        let address = DropboxOAuth(appKey: "abc123", apiBase: "https://api.dropboxapi.com", session: try CurlSession())
            .authorizationURL(challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(address == "https://www.dropbox.com/oauth2/authorize?client_id=abc123&response_type=code"
            + "&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&token_access_type=offline")
    }

    /// A token about to expire is renewed before it is sent: no request is refused for it.
    @Test func anAccessTokenIsRenewedBeforeItExpires() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let standIn = try DropboxStandIn.start(root: root, token: "fixed-\(UUID().uuidString)", tokenLifetime: 3)
        defer { standIn.stop() }
        let session = try CurlSession()
        let oauth = DropboxOAuth(appKey: DropboxStandIn.defaultAppKey, apiBase: standIn.apiBase.absoluteString, session: session)
        let verifier = DropboxOAuth.newVerifier()
        let code = try standIn.authorize(oauth.authorizationURL(challenge: DropboxOAuth.challenge(for: verifier)))
        let signIn = try oauth.exchange(code: code, verifier: verifier)
        #expect(signIn.access.lifetime == 3)
        let access = DropboxAccess(login: .init(refreshToken: signIn.refreshToken, appKey: DropboxStandIn.defaultAppKey),
                                   apiBase: standIn.apiBase.absoluteString, session: session, signInCommand: "bibread login dropbox")
        let transport = DropboxTransport(url: "dropbox:", apiBase: standIn.apiBase.absoluteString, access: access, session: session)
        let first = try access.token()
        #expect(try transport.list("").isEmpty)
        usleep(3_100_000)
        #expect(try transport.list("").isEmpty)
        #expect(try access.token() != first)
        let log = (try? String(contentsOfFile: standIn.logPath, encoding: .utf8)) ?? ""
        #expect(!log.contains("HTTP/1.1\" 401"), "no call was refused")
        #expect(try standIn.issued().refreshGrants == 2)
    }
}
