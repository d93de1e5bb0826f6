import Foundation

/// A local folder or `file://` URL (a mounted drive, a Syncthing folder): listed with the file
/// system, fetched through libcurl's `file://` like every other remote (so resuming and
/// progress work the same). A symbolic link in it is never followed, a file's or a folder's.
public struct FolderTransport: Transport {
    public let root: URL

    public init(url: String) throws {
        guard let parsed = URL(string: url), parsed.isFileURL else { throw RemoteError.unsupportedURL(url) }
        root = parsed.standardizedFileURL
    }

    public func list(_ folder: String) throws -> [RemoteFile] {
        let directory = folder.isEmpty ? root : URL(fileURLWithPath: try localPath(folder), isDirectory: true)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw TransportError.notFound(directory.path)
        }
        return names.sorted().compactMap { name in
            let path = folder.isEmpty ? name : "\(folder)/\(name)"
            var status = stat()
            guard lstat(directory.appendingPathComponent(name).path, &status) == 0 else { return nil }
            let isFolder = (status.st_mode & S_IFMT) == S_IFDIR
            guard isFolder || (status.st_mode & S_IFMT) == S_IFREG else { return nil }  // no links, devices
            let modified = Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
            return RemoteFile(path: path, size: isFolder ? nil : Int64(status.st_size),
                              version: "\(status.st_size)-\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)",
                              modified: modified, isFolder: isFolder)
        }
    }

    public func downloadRequest(_ path: String, from offset: Int64) throws -> TransferRequest {
        var request = TransferRequest(url: URL(fileURLWithPath: try localPath(path), isDirectory: false).absoluteString)
        request.resumeFrom = offset
        return request
    }

    /// The file system path of a remote path, refusing a symbolic link at every level below the
    /// root, not only the last: a linked folder (`dirlink -> /etc`) would read files from
    /// outside the remote. (The root itself is the user's choice, link or not.)
    func localPath(_ path: String) throws -> String {
        try RemotePath.localPath(path, under: root.path)
    }
}
