import Checksums
import DiskIO
import Foundation

/// The last synced copy of each of a remote's .bib files: the exact bytes this machine last
/// downloaded from the remote or uploaded to it, with the version the remote gave them, kept in
/// the library folder's `.base/` (hidden, so that it is never taken for a library). It is the
/// base of a three-way merge of this machine's edits with the remote's changes, and its version
/// is what a conditional upload replaces.
///
/// Each copy is one file written atomically, so its bytes and its version always go together:
/// a first line `bibread base copy 1`, a line of JSON (the remote path, the version, the size
/// and SHA-256 of the bytes), then the bytes as they were. A copy whose bytes do not match its
/// size and hash is not given back.
public struct BaseCopies: Sendable {
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    /// What the second line of a copy holds.
    private struct Facts: Codable, Equatable {
        var path: String
        var version: RemoteVersion
        var size: Int
        var sha256: String
    }

    private static let firstLine = Array("bibread base copy 1\n".utf8)

    /// Keeps `copy` as the last synced copy of the remote's `remotePath`, replacing the one
    /// kept before; durable when this returns.
    public func save(_ copy: VersionedContents, of remotePath: String) throws {
        let facts = Facts(path: remotePath, version: copy.version, size: copy.contents.count, sha256: SHA256.hex(of: copy.contents))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = Data(Self.firstLine)
        data.append(try encoder.encode(facts))
        data.append(0x0A)
        data.append(contentsOf: copy.contents)
        try AtomicFile.write(data, to: file(for: remotePath))
    }

    /// The last synced copy of the remote's `remotePath`; nil when there is none, or when the
    /// file kept is not whole.
    public func copy(of remotePath: String) -> VersionedContents? {
        guard let data = try? Data(contentsOf: file(for: remotePath)), data.starts(with: Self.firstLine),
              let end = data[Self.firstLine.count...].firstIndex(of: 0x0A),
              let facts = try? JSONDecoder().decode(Facts.self, from: data[Self.firstLine.count..<end]),
              facts.path == remotePath else { return nil }
        let contents = Array(data[(end + 1)...])
        guard contents.count == facts.size, SHA256.hex(of: contents) == facts.sha256 else { return nil }
        return VersionedContents(contents: contents, version: facts.version)
    }

    /// Uploads `contents` to the remote's `remotePath` through `transport` over the version
    /// `expected` (nil: where there is no file), then keeps it as the last synced copy with the
    /// version the remote gave it. Throws as ``UploadingTransport/upload(_:to:replacing:)``.
    public func upload(_ contents: [UInt8], to remotePath: String, replacing expected: RemoteVersion?,
                       through transport: any UploadingTransport) throws -> RemoteVersion {
        let version = try transport.upload(contents, to: remotePath, replacing: expected)
        try save(VersionedContents(contents: contents, version: version), of: remotePath)
        return version
    }

    /// Notes, durably, the bytes about to be uploaded to `remotePath` (before the upload): when
    /// the process dies after the upload landed but before its version was kept, the next push
    /// finds the remote holding exactly these bytes and takes them as the last synced copy
    /// (``adoptedCopy(of:remote:)``) instead of taking its own earlier push for another
    /// machine's change.
    public func noteUpload(_ contents: [UInt8], to remotePath: String) throws {
        try AtomicFile.write(Data(contents), to: uploadFile(for: remotePath))
    }

    /// The last synced copy of `remotePath` given the remote's version `remote`: the upload
    /// noted before when the remote holds exactly its bytes (kept now as the copy, with the
    /// remote's version), else ``copy(of:)``.
    public func adoptedCopy(of remotePath: String, remote: VersionedContents) throws -> VersionedContents? {
        let noted = uploadFile(for: remotePath)
        if let bytes = try? Data(contentsOf: noted), bytes.elementsEqual(remote.contents) {
            try save(remote, of: remotePath)
            try? FileManager.default.removeItem(at: noted)
            return remote
        }
        return copy(of: remotePath)
    }

    /// Whether an upload to `remotePath` was noted and not forgotten since (it may have landed).
    public func hasNotedUpload(to remotePath: String) -> Bool {
        FileManager.default.fileExists(atPath: uploadFile(for: remotePath).path)
    }

    /// The bytes of the upload noted for `remotePath`, if one is.
    public func notedUpload(to remotePath: String) -> [UInt8]? {
        (try? Data(contentsOf: uploadFile(for: remotePath))).map(Array.init)
    }

    /// Forgets the upload noted for `remotePath` (it landed and is kept, or was refused).
    public func forgetUpload(to remotePath: String) {
        try? FileManager.default.removeItem(at: uploadFile(for: remotePath))
    }

    private func uploadFile(for remotePath: String) -> URL {
        file(for: remotePath).deletingPathExtension().appendingPathExtension("uploading")
    }

    /// Where the copy of `remotePath` is kept: the path with `%` and `/` percent-encoded
    /// (`sub%2Flibrary.bib.base`), or, for a path too long for a file name, its SHA-256.
    func file(for remotePath: String) -> URL {
        let name = remotePath.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
        let safe = name.utf8.count <= 200 && name != "." && name != ".." ? name : SHA256.hex(of: Array(remotePath.utf8))
        return folder.appendingPathComponent(safe + ".base")
    }
}
