import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a folder holds, entry by entry: enough to see at once that anything there was written.
public enum FolderState {
    /// Each entry of `folder` with its size, change time and inode.
    public static func of(_ folder: URL) -> [String: [Int]] {
        var state: [String: [Int]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            var status = stat()
            guard lstat(folder.appendingPathComponent(name).path, &status) == 0 else { continue }
            state[name] = [Int(status.st_size), Int(status.st_ctim.tv_sec), Int(status.st_ctim.tv_nsec), Int(status.st_ino)]
        }
        return state
    }
}
