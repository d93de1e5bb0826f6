import Foundation

/// Reads libcurl's `ls -l`-like sftp listing:
/// `-rw-r--r--    1 root     root         1234 Nov 22 09:41 file name.pdf`.
enum SFTPListing {
    static func parse(_ text: String, folder: String) -> [RemoteFile] {
        var files: [RemoteFile] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 8, omittingEmptySubsequences: true)
            guard fields.count == 9, let mode = fields.first, let size = Int64(fields[4]) else { continue }
            let name = String(fields[8]).trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
            guard name != "." && name != "..", let kind = mode.first, kind == "-" || kind == "d" else { continue }
            let stamp = "\(fields[5]) \(fields[6]) \(fields[7])"
            files.append(RemoteFile(path: folder.isEmpty ? name : "\(folder)/\(name)", size: kind == "d" ? nil : size,
                                    version: "\(size)-\(stamp)", modified: nil, isFolder: kind == "d"))
        }
        return files.sorted { $0.path < $1.path }
    }
}
