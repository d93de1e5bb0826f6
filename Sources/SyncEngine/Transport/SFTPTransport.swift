import Foundation

/// SFTP (`sftp://user@host:port/path`): keys from a key file or ssh-agent, the host checked
/// against `known_hosts`. A folder URL ending in `/` makes libcurl list it like `ls -l`.
public struct SFTPTransport: URLRootTransport {
    public let root: String
    let session: CurlSession
    let credentials: TransferCredentials

    public init(url: String, session: CurlSession, credentials: TransferCredentials) {
        root = Self.folderURL(url)
        self.session = session
        self.credentials = credentials
    }

    public func list(_ folder: String) throws -> [RemoteFile] {
        var request = TransferRequest(url: root + (folder.isEmpty ? "" : URLText.encodedPath(folder) + "/"))
        request.credentials = credentials
        let response: TransferResponse
        do {
            response = try session.perform(request)
        } catch TransferFailure.curl(let code, _) where code == Self.remoteFileNotFound {
            // The server's "no such file": no folder there (OpenSSH says the same of a file).
            throw TransportError.notFound(folder.isEmpty ? "/" : folder)
        }
        return SFTPListing.parse(String(decoding: response.body, as: UTF8.self), folder: folder)
    }

}
