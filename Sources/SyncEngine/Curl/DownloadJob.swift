import Foundation

/// One file to download: the request, and the file its body goes into.
public struct DownloadJob: Sendable, Equatable {
    /// What to fetch; its `resumeFrom` continues a partial file.
    public var request: TransferRequest
    /// The file the body is written to (a `file:` URL).
    public var destination: URL

    /// A download of `request` into `destination`.
    public init(request: TransferRequest, destination: URL) {
        self.request = request
        self.destination = destination
    }
}
