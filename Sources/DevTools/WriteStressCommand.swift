import ArgumentParser
import BibreadServices
import BibreadValues
import DiskIO
import Foundation
import PDFText
import ReadingList
import SyncEngine

/// `bibread-dev write-stress`: writes to every store bibread keeps, in rounds, until it is killed
/// (run by the crash-safety tests, which kill it with SIGKILL at random moments and
/// then check that every store opens, passes SQLite's integrity check and holds the writes of
/// some prefix of the sequence below, never a torn one).
///
/// Every write goes through the code the reader and the other commands use. Round `r` (from 1)
/// does, in this order, each step one transaction or one rename:
/// 1. the reading position of the fingerprint `write-stress-round`: page `r`, path
///    `/write-stress/round-r` (the round counter);
/// 2. with `--pdf`, the position of that PDF's fingerprint (as the reader saves it): page
///    `1 + (r - 1) % pages`, scroll `(r % 4) / 4`;
/// 3. `recordReading` of `write-stress`/`stress2024` at time `r`;
/// 4. bookmark slots 0–3, as `m` keeps them: slot `i` is a top-level bookmark named
///    `round r slot i` (`stress2024`, page `i + 1`, to `i + 2` when `i` is odd) when
///    `i < 1 + r % 4`; the slot's previous bookmark is removed (one transaction), then the new
///    one added (another);
/// 5. page notes of `stress2024`, as `n` saves them: page 1 `round r`; page 2
///    `round r, line 1\nline 2`, or no note when `r % 3 == 0`;
/// 6. the reading list `Imported round r`, encoded and decoded as a binary plist and imported
///    with its page notes, as `bookmarks import` does (one transaction): `1 + r % 5` bookmarks
///    `r/j` (`stress2024`, page `j + 1`; the first one's key is `import-r`, with the page note
///    `imported in round r`), then a folder `Folder r` holding a notemark `Note r` (text
///    `round r`); then the folders of earlier rounds are deleted (one transaction each);
/// 7. the session file `state.json` (written atomically) with the group `round r` for the
///    library `/write-stress/library.bib`;
/// 8. the cache of the remote `write-stress`, as a sync stores a finished download: the
///    partial version `round-r` noted, `papers/stress.pdf.part` written, renamed to
///    `papers/stress.pdf`, then recorded with version `round-r`. The file's bytes are
///    `WriteStressCommand.cacheFile(round: r)`.
///
/// On start it reads the round counter and does that round again before going on: each step
/// sets its store to the round's value whatever it held, so a round cut short is completed.
struct WriteStressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write-stress",
        abstract: "Write to the state store, the session file and the PDF cache in rounds, forever (crash tests).")

    @Option(help: ArgumentHelp("A PDF whose reading position is saved too (by its fingerprint).", valueName: "file.pdf"))
    var pdf: String?

    @Option(help: "How many pages of --pdf the saved position cycles through.")
    var pages = 4

    @Option(help: "Stop after this round (default: never).")
    var rounds: Int?

    static let citeKey = "stress2024"
    static let libraryName = "write-stress"
    static let roundFingerprint = "write-stress-round"
    static let slots = 4
    static let cachedPath = "papers/stress.pdf"

    func validate() throws {
        if pages < 1 { throw ValidationError("--pages must be at least 1") }
    }

    func run() throws {
        let writer = try StressWriter(pdf: pdf, pages: pages)
        var round = max(1, try writer.currentRound())
        DevConsole.print("write-stress: starting at round \(round)")
        while rounds.map({ round <= $0 }) ?? true {
            try writer.write(round: round)
            round += 1
        }
    }

    /// The cached file's bytes in round `r`: a PDF-like header naming the round, then a body
    /// whose length and bytes depend on `r`, then `%%EOF`.
    static func cacheFile(round: Int) -> [UInt8] {
        var bytes = Array("%PDF-1.4\n% bibread write-stress round \(round)\n".utf8)
        let body = 1000 + (round % 8) * 8192
        bytes += (0..<body).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ round) }
        return bytes + Array("\n%%EOF\n".utf8)
    }
}

/// The stores, opened as the reader and the commands open them, and one round of writes.
private struct StressWriter {
    let store: ReadingStore
    let sessions: SessionStore
    let locations: RemoteLocations
    let manifest: CacheManifest
    let document: (path: String, fingerprint: String)?
    let pages: Int

    init(pdf: String?, pages: Int) throws {
        let directories = Directories()
        store = try ReadingStore(directory: directories.state)
        sessions = SessionStore(directory: directories.state)
        locations = RemoteLocations(name: WriteStressCommand.libraryName)
        try FileManager.default.createDirectory(at: locations.cache, withIntermediateDirectories: true)
        manifest = try CacheManifest(url: locations.manifest)
        document = try pdf.map { path in
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            return (absolute, try PDFFingerprint.of(path: absolute))
        }
        self.pages = pages
    }

    /// The round last started (0: none).
    func currentRound() throws -> Int {
        try store.position(fingerprint: WriteStressCommand.roundFingerprint)?.page ?? 0
    }

    func write(round r: Int) throws {
        let now = Date().timeIntervalSince1970
        try store.save(ReadingPosition(fingerprint: WriteStressCommand.roundFingerprint, path: "/write-stress/round-\(r)",
                                       page: r, scroll: 0, updatedAt: now))
        if let document {
            try store.save(ReadingPosition(fingerprint: document.fingerprint, path: document.path, page: 1 + (r - 1) % pages,
                                           scroll: Double(r % 4) / 4, updatedAt: now))
        }
        try store.recordReading(fingerprint: document?.fingerprint ?? WriteStressCommand.roundFingerprint,
                                path: document?.path ?? "/write-stress/library.pdf", key: WriteStressCommand.citeKey, at: Double(r))
        for slot in 0..<WriteStressCommand.slots { try writeSlot(slot, round: r) }
        try store.setNote(citeKey: WriteStressCommand.citeKey, page: 1, text: "round \(r)")
        try store.setNote(citeKey: WriteStressCommand.citeKey, page: 2, text: r % 3 == 0 ? "" : "round \(r), line 1\nline 2")
        try importList(round: r)
        try sessions.save(LibrarySession(group: "round \(r)", selection: WriteStressCommand.citeKey, sort: "year",
                                         descending: r % 2 == 0), for: ["/write-stress/library.bib"])
        try writeCache(round: r)
    }

    /// `m` on a page: the slot's old bookmark removed, the round's added (when it has one).
    private func writeSlot(_ slot: Int, round r: Int) throws {
        let name = "round \(r) slot \(slot)"
        let wanted = slot < 1 + r % WriteStressCommand.slots
        let present = try store.savedBookmarks().nodes.filter { $0.kind == .bookmark && $0.name.hasSuffix(" slot \(slot)") }
        for node in present where !(wanted && node.name == name) { try store.delete(node: node.id) }
        guard wanted, !present.contains(where: { $0.name == name }) else { return }
        let reference = PageReference(citeKey: WriteStressCommand.citeKey, library: "library.bib", page: slot + 1,
                                      lastPage: slot % 2 == 1 ? slot + 2 : nil)
        try store.addBookmark(named: name, reference: reference)
    }

    /// `bookmarks import` of the round's list (skipped when a cut-short round got that far),
    /// then the earlier rounds' folders deleted.
    private func importList(round r: Int) throws {
        let name = "Imported round \(r)"
        let folders = try store.savedBookmarks().nodes.filter { $0.kind == .folder && $0.name.hasPrefix("Imported round ") }
        if !folders.contains(where: { $0.name == name }) {
            var children: [BookmarkNode] = (0..<(1 + r % 5)).map { index in
                let reference = PageReference(citeKey: index == 0 ? "import-\(r)" : WriteStressCommand.citeKey, page: index + 1)
                return .bookmark(Bookmark(name: "\(r)/\(index)", reference: reference, notes: index == 0 ? ["imported in round \(r)"] : []))
            }
            children.append(.folder(BookmarkFolder(name: "Folder \(r)", children: [.notemark(Notemark(name: "Note \(r)", text: "round \(r)"))])))
            let list = ReadingList(root: BookmarkFolder(name: name, children: children), includesPageNotes: true)
            let decoded = try ReadingListCoder.decode(ReadingListCoder.encode(list, as: .binary))
            _ = try store.importList(decoded.list, fallbackName: "write-stress", includeNotes: true)
        }
        for folder in folders where folder.name != name { try store.delete(node: folder.id) }
    }

    /// What a sync does with a finished download: the partial noted, `.part` written, renamed
    /// into place, recorded.
    private func writeCache(round r: Int) throws {
        let path = WriteStressCommand.cachedPath
        let version = "round-\(r)"
        let local = try locations.cachedFile(path)
        let bytes = WriteStressCommand.cacheFile(round: r)
        if try manifest.record(path)?.version == version, FileManager.default.contents(atPath: local.path) == Data(bytes) { return }
        try FileManager.default.createDirectory(at: local.deletingLastPathComponent(), withIntermediateDirectories: true)
        try manifest.startPartials([path: version])
        let part = local.path + ".part"
        let descriptor = open(part, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw StressError(path: part, code: errno) }
        // In pieces, as a download arrives, so that a kill can find it half written.
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, failure == 0 {
                let count = min(4096, buffer.count - offset)
                failure = FileDescriptor.writeAll(descriptor, buffer.baseAddress! + offset, count: count)
                offset += count
            }
        }
        close(descriptor)
        if failure != 0 { throw StressError(path: part, code: failure) }
        guard rename(part, local.path) == 0 else { throw StressError(path: local.path, code: errno) }
        try manifest.store(CacheManifest.Record(path: path, size: Int64(bytes.count), version: version, modified: nil,
                                                fetchedAt: Date().timeIntervalSince1970, lastRead: nil))
    }
}

/// A system call of the cache writes failed.
private struct StressError: Error, CustomStringConvertible {
    let path: String
    let code: Int32
    var description: String { "cannot write \(path): \(String(cString: strerror(code)))" }
}
