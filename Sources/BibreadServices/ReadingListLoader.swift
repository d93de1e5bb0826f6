import BibModel
import Foundation
import ReadingList
import SyncEngine

/// Reads a reading list from a file, a URL or a link, within the same limits whatever the way.
public enum ReadingListLoader {
    /// The most a list may weigh, downloaded or read (and a link may declare).
    public static let maxBytes: Int64 = 16 << 20

    /// Loads and decodes a list; downloads show `progress` (bytes, announced total) and stop
    /// when `isCancelled` says so.
    public static func load(_ source: ReadingListSource,
                            progress: @escaping (Int64, Int64?) -> Void = { _, _ in },
                            isCancelled: @escaping () -> Bool = { false }) throws -> DecodedReadingList {
        switch source {
        case .file(let path):
            let bytes = try readFile(path)
            return try decode(bytes, source: source.displayName)
        case .url(let url):
            let bytes = try download(url, progress: progress, isCancelled: isCancelled)
            return try decode(bytes, source: url)
        case .link(let link):
            let content: BookmarkLink.Content
            do {
                content = try BookmarkLink.parse(link)
            } catch let error as ReadingListError {
                throw ReadingListLoadError.list(source: "the link", error: error)
            }
            switch content {
            case .list(let decoded):
                return decoded
            case .download(let url):
                let bytes = try download(url, progress: progress, isCancelled: isCancelled)
                return try decode(bytes, source: url)
            }
        }
    }

    private static func decode(_ bytes: [UInt8], source: String) throws -> DecodedReadingList {
        do {
            return try ReadingListCoder.decode(bytes)
        } catch let error as ReadingListError {
            throw ReadingListLoadError.list(source: source, error: error)
        }
    }

    private static func readFile(_ path: String) throws -> [UInt8] {
        let handle: FileHandle?
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ReadingListLoadError.unreadable(source: path, reason: "no such file")
            }
            if isDirectory.boolValue { throw ReadingListLoadError.unreadable(source: path, reason: "is a folder, not a list") }
            handle = FileHandle(forReadingAtPath: path)
        }
        guard let handle else { throw ReadingListLoadError.unreadable(source: path, reason: "cannot be opened (permissions?)") }
        do {
            // One byte past the cap tells "too large" without reading a huge file whole.
            let data = try handle.read(upToCount: Int(maxBytes) + 1) ?? Data()
            if data.count > maxBytes {
                throw ReadingListLoadError.list(source: path == "-" ? "<stdin>" : path,
                                                error: .limitExceeded("the list is larger than 16 MB"))
            }
            return [UInt8](data)
        } catch let error as ReadingListLoadError {
            throw error
        } catch {
            throw ReadingListLoadError.unreadable(source: path, reason: error.localizedDescription)
        }
    }

    private static func download(_ url: String, progress: @escaping (Int64, Int64?) -> Void,
                                 isCancelled: @escaping () -> Bool) throws -> [UInt8] {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            throw ReadingListLoadError.unreadable(source: url, reason: "only http and https URLs are downloaded")
        }
        do {
            let session = try CurlSession()
            var request = TransferRequest(url: url)
            request.credentials = .netrc
            request.stallTimeout = 30
            return try session.fetch(request, limit: maxBytes, progress: progress, isCancelled: isCancelled).body
        } catch let failure as TransferFailure {
            throw ReadingListLoadError.download(url: TransferRequest(url: url).displayURL, failure: failure)
        }
    }

    /// One warning per bookmark whose cite key is not in `library`, with its place in the tree.
    public static func missingKeyWarnings(_ list: ReadingList, in library: Library) -> [ListProblem] {
        var problems: [ListProblem] = []
        func walk(_ folder: BookmarkFolder, path: String) {
            for (index, child) in folder.children.enumerated() {
                let childPath = path.isEmpty ? "Children[\(index)]" : "\(path).Children[\(index)]"
                switch child {
                case .folder(let sub):
                    walk(sub, path: childPath)
                case .bookmark(let bookmark):
                    if library.entries(withKey: bookmark.reference.citeKey).isEmpty {
                        problems.append(ListProblem(.warning, path: childPath + ".Reference.CiteKey",
                                                    message: "\"\(bookmark.reference.citeKey)\" is not in the library"))
                    }
                case .notemark:
                    break
                }
            }
        }
        walk(list.root, path: "")
        return problems
    }
}
