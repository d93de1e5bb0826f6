import Foundation

/// A remote file's bytes with the version they are.
public struct VersionedContents: Sendable, Equatable {
    public let contents: [UInt8]
    public let version: RemoteVersion

    public init(contents: [UInt8], version: RemoteVersion) {
        self.contents = contents
        self.version = version
    }
}
