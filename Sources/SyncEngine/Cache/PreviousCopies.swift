import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The copies of a remote's .bib files that syncs replaced, a few per file, in the library's
/// `.previous/` folder, so that a user can go back to one: `library.20261125T213005.123Z.bib`
/// is the `library.bib` that was in use until then (a file in a remote folder has its folders
/// in its name: `sub_library.….bib`).
public struct PreviousCopies: Sendable {
    public let folder: URL
    /// How many copies of each file are kept; the oldest go first.
    public static let kept = 3

    public init(folder: URL) {
        self.folder = folder
    }

    /// Keeps the file at `local` (the copy in use of the remote's `remotePath`) before it is
    /// replaced: a second name for it (a hard link, else a copy), so that the replacement does
    /// not touch it. Returns where it is kept; nil when there is nothing to keep or it cannot
    /// be kept (the sync goes on).
    @discardableResult
    public func keep(_ local: URL, as remotePath: String) -> URL? {
        guard FileManager.default.fileExists(atPath: local.path) else { return nil }
        let (stem, suffix) = Self.nameParts(remotePath)
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss.SSS'Z'"
        let copy = folder.appendingPathComponent("\(stem).\(formatter.string(from: Date()))\(suffix)")
        unlink(copy.path)
        guard link(local.path, copy.path) == 0 || (try? FileManager.default.copyItem(at: local, to: copy)) != nil else { return nil }
        for old in copies(of: remotePath).dropLast(Self.kept) { unlink(old.path) }
        return copy
    }

    /// The kept copies of the remote's `remotePath`, oldest first.
    public func copies(of remotePath: String) -> [URL] {
        let (stem, suffix) = Self.nameParts(remotePath)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { name in
            guard name.hasPrefix(stem + "."), name.hasSuffix(suffix) else { return false }
            let stamp = name.dropFirst(stem.count + 1).dropLast(suffix.count)
            return stamp.count == 20 && stamp.hasSuffix("Z") && stamp.dropLast().allSatisfy { $0.isNumber || $0 == "T" || $0 == "." }
        }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// The name of a kept copy before and after its time: the remote path with `/` as `_`,
    /// split before its extension (`sub/library.bib` → `sub_library`, `.bib`).
    private static func nameParts(_ remotePath: String) -> (stem: String, suffix: String) {
        let flat = remotePath.replacingOccurrences(of: "/", with: "_")
        guard let dot = flat.lastIndex(of: "."), dot != flat.startIndex else { return (flat, "") }
        return (String(flat[..<dot]), String(flat[dot...]))
    }
}
