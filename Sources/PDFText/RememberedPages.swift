import Checksums
import DiskIO
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The text of the page a reader was last on in each document, kept on disk for the exact file
/// it was extracted from, so that a document reopened at its remembered page shows that page at
/// once, while poppler reads its page tree (in a long PDF, a quarter of a second to page 2000).
///
/// A kept text is the text `PDFDocument.text(ofPage:mode:)` gave, byte for byte, and it is given
/// back only for the same file (its `FileIdentity`: device, inode, size, modification and change
/// times), read by the same poppler and the same bibread program (`producer`); anything else
/// reads as nothing kept. One small file per document (by device and inode) in `folder`, at most
/// `keptDocuments` of them (the oldest go first). Files that do not read back whole (cut short,
/// damaged, too large, another format) are ignored. Callers keep no page of a document opened
/// with a password here: its text stays in memory.
public final class RememberedPages: Sendable {
    /// What a kept text is: a page of the document in one mode.
    public struct Page: Hashable, Sendable {
        /// The 1-based page number.
        public var number: Int
        /// Which text of the page.
        public var mode: PageTextMode

        /// Page `number` in `mode`.
        public init(number: Int, mode: PageTextMode) {
            self.number = number
            self.mode = mode
        }
    }

    /// The folder of the kept files.
    public let folder: URL
    /// The most documents whose pages are kept.
    public let keptDocuments: Int
    /// What made the texts: the poppler version and this program's file; a text made by another
    /// poppler or another build of bibread is not given back. Worked out on first use, when a
    /// document is open: asking poppler its version loads poppler-glib and the ~230 files it
    /// maps, which the library view never needs.
    public var producer: String { givenProducer ?? Self.currentProducer }
    private let givenProducer: String?
    /// The largest file read back.
    public static let largestFile = 4 << 20

    /// Texts kept in `folder` for at most `keptDocuments` documents; `producer` (tests) defaults to
    /// this program's and poppler's.
    public init(folder: URL, keptDocuments: Int = 200, producer: String? = nil) {
        self.folder = folder
        self.keptDocuments = max(1, keptDocuments)
        givenProducer = producer
    }

    /// `$XDG_CACHE_HOME/bibread/.page-text` (a remote's name never starts with a dot).
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        BaseDirectories(environment: environment).cache.appendingPathComponent(".page-text")
    }

    /// The texts kept for the file `identity`; empty when none are (or the file is another's).
    public func texts(for identity: FileIdentity) -> [Page: String] {
        guard let data = Self.read(file(for: identity).path),
              let kept = try? JSONDecoder().decode(KeptFile.self, from: data),
              kept.format == Self.format, kept.producer == producer, kept.identity == identity else { return [:] }
        var texts: [Page: String] = [:]
        for page in kept.pages {
            guard let mode = PageTextMode(rawValue: page.mode), page.number >= 1 else { return [:] }
            texts[Page(number: page.number, mode: mode)] = page.text
        }
        return texts
    }

    /// Keeps `texts` as the texts of the file `identity` (replacing what was kept for it); what
    /// cannot be written is not kept.
    public func remember(_ texts: [Page: String], for identity: FileIdentity) {
        guard !texts.isEmpty else { return }
        let pages = texts.sorted { ($0.key.number, $0.key.mode.rawValue) < ($1.key.number, $1.key.mode.rawValue) }
            .map { KeptFile.KeptPage(number: $0.key.number, mode: $0.key.mode.rawValue, text: $0.value) }
        let kept = KeptFile(format: Self.format, producer: producer, identity: identity, pages: pages)
        guard let data = try? JSONEncoder().encode(kept), data.count <= Self.largestFile else { return }
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let target = file(for: identity)
        // Not fsynced: a text lost in a crash is extracted again; a torn file does not decode.
        let temporary = folder.appendingPathComponent(".\(target.lastPathComponent).\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let failure = data.withUnsafeBytes { buffer in
            buffer.baseAddress.map { FileDescriptor.writeAll(descriptor, $0, count: buffer.count) } ?? 0
        }
        close(descriptor)
        guard failure == 0, rename(temporary.path, target.path) == 0 else {
            unlink(temporary.path)
            return
        }
        forgetOldest()
    }

    /// The file of the document `identity` is (its device and inode).
    func file(for identity: FileIdentity) -> URL {
        var hash = SHA256()
        hash.update(Array("\(identity.device):\(identity.inode)".utf8))
        return folder.appendingPathComponent(String(SHA256.hexString(hash.finalize()).prefix(32)) + ".json")
    }

    /// Removes the files of the documents read longest ago, beyond `keptDocuments`, and the
    /// temporary files of writers that died between their write and their rename (older than
    /// `abandonedAfter` seconds: a live writer renames its file within a moment).
    private func forgetOldest() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        let now = Int64(time(nil))
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            let path = folder.appendingPathComponent(name).path
            if let modified = Self.modificationSeconds(path), modified < now - Self.abandonedAfter { unlink(path) }
        }
        let kept = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
        guard kept.count > keptDocuments else { return }
        let dated = kept.map { name -> (String, Int64) in
            let path = folder.appendingPathComponent(name).path
            return (path, Self.modificationSeconds(path) ?? 0)
        }
        for (path, _) in dated.sorted(by: { $0.1 < $1.1 }).prefix(kept.count - keptDocuments) { unlink(path) }
    }

    /// How old, in seconds, a temporary file is before it counts as left by a writer that died.
    static let abandonedAfter: Int64 = 600

    /// The modification time of the file at `path` (not followed if a link), in seconds.
    private static func modificationSeconds(_ path: String) -> Int64? {
        var status = stat()
        return lstat(path, &status) == 0 ? Int64(status.st_mtim.tv_sec) : nil
    }

    /// The bytes of the regular file at `path`, or nil when it is missing, not regular, empty, or
    /// larger than `largestFile`.
    private static func read(_ path: String) -> Data? {
        guard let bytes = try? RegularFile.readAll(path, limit: largestFile), !bytes.isEmpty else { return nil }
        return Data(bytes)
    }

    /// The layout of the kept files; a change of it changes `format`.
    private static let format = 1

    private struct KeptFile: Codable {
        struct KeptPage: Codable {
            var number: Int
            var mode: String
            var text: String
        }

        var format: Int
        var producer: String
        var identity: FileIdentity
        var pages: [KeptPage]
    }

    /// poppler's version and this program's file (device, inode, size, modification time): a new
    /// build or another poppler extracts afresh.
    static let currentProducer: String = {
        let version = (try? Poppler.version) ?? "no poppler"
        let program = FileIdentity(path: "/proc/self/exe").map { "\($0.device):\($0.inode):\($0.size):\($0.modified)" } ?? "unknown program"
        return "poppler \(version); bibread \(program)"
    }()
}
