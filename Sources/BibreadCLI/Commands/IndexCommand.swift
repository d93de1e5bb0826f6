import ArgumentParser
import BibModel
import BibreadServices
import Foundation
import FullText
import SyncEngine

/// `bibread index [LIB…]`: reads the text of the library's PDFs into the full-text index.
struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index", abstract: "Build or update the full-text index of the library's PDFs.",
        discussion: """
        Reads every PDF of the library that is on this machine (here or in the sync cache) into \
        $XDG_CACHE_HOME/bibread/fulltext.sqlite, keyed by content: unchanged files are not read \
        again, a moved or copied file is not read at all, and files that are gone drop out. Then \
        search inside the papers with text:word or text:"a phrase" in 'bibread list --search' \
        and in the reader. The reader also updates the index in the background. Ctrl-C stops \
        between two documents; the next run goes on from there. The index is shared by every \
        library: a PDF drops out when the last library that links it stops linking it; \
        --prune also drops the PDFs of libraries that are gone (deleted or moved .bib files).
        """)

    @OptionGroup var library: LibraryOptions

    @Flag(help: "Afterwards, drop the PDFs no library known to the index links any more (or that are gone).")
    var prune = false

    @Option(help: "Extraction threads (default: one per core).")
    var workers: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)

    func validate() throws {
        if workers < 1 || workers > 64 { throw ValidationError("--workers must be from 1 to 64") }
    }

    func run() throws {
        let paths = LibraryPaths.current(given: try library.paths)
        guard !paths.isEmpty || prune else {
            Console.error("bibread: no library: name one (bibread index LIB.bib) or set library = \"…\" in config.toml")
            throw ExitCode(64)
        }
        let index: FullTextIndex
        do {
            index = try FullTextIndex(url: FullTextIndex.defaultURL())
        } catch {
            Console.error("bibread: cannot open the full-text index \(FullTextIndex.defaultURL().path): \(ErrorText.plain(error))")
            throw ExitStatus.unreadable
        }
        if !paths.isEmpty { try update(index, paths: paths) }
        if prune { try Self.prune(index) }
    }

    /// Reads the PDFs of the library at `paths` into `index`, showing progress on a terminal.
    private func update(_ index: FullTextIndex, paths: [String]) throws {
        let loaded = LoadedLibrary.load(paths: paths)
        let pdfs = LibraryPDFs(library: loaded.library)
        let cancel = CancelOnInterrupt()
        let terminal = Console.isErrorTerminal
        var lastDraw = Date.distantPast
        let summary = try index.update(libraries: pdfs.pathsByLibrary, workers: workers, progress: { progress in
            guard terminal, Date().timeIntervalSince(lastDraw) > 0.1 || progress.done == progress.total else { return }
            lastDraw = Date()
            let name = progress.currentPath.map { ($0 as NSString).lastPathComponent } ?? ""
            let line = "indexing \(progress.done) of \(progress.total) PDFs, \(progress.pages) pages  \(name)"
            Console.progressLine(String(line.prefix(max(20, Console.errorWidth - 1))))
        }, isCancelled: cancel.isCancelled)
        if terminal { Console.clearProgressLine() }
        var parts = ["\(summary.read) read (\(summary.pages) pages)", "\(summary.unchanged) unchanged"]
        if summary.mapped > 0 { parts.append("\(summary.mapped) copies of indexed files") }
        if summary.removed > 0 { parts.append("\(summary.removed) gone") }
        if !summary.failed.isEmpty { parts.append("\(summary.failed.count) unreadable") }
        let rate = summary.seconds > 0 && summary.pages > 0 ? String(format: ", %.0f pages/s", Double(summary.pages) / summary.seconds) : ""
        Console.error("\(summary.cancelled ? "Stopped" : "Indexed") \(pdfs.paths.count) PDFs: \(parts.joined(separator: ", ")) in \(String(format: "%.1f", summary.seconds)) s\(rate)")
        for (path, reason) in summary.failed.sorted(by: { $0.key < $1.key }) { Console.error("  \(path): \(reason)") }
        if summary.cancelled { throw ExitCode(130) }
    }

    /// Drops from `index` what no library it knows links any more: each known .bib file that
    /// still exists is read again for its links; one that is gone links nothing.
    private static func prune(_ index: FullTextIndex) throws {
        var linked: [String: [String]] = [:]
        let libraries = try index.libraries().filter { FileManager.default.fileExists(atPath: $0) }
        // A synced remote's library links its PDFs in the cache, as when it was indexed.
        // A local library's are found through its path_mapping or by name, as when it was indexed.
        let config = Config.load(from: Directories().config)
        RemoteLocations.registerAliases(forLibraries: libraries, remotes: config.remotes)
        config.registerLinkedFileSearch(forLibraries: libraries)
        for library in libraries {
            let (loaded, failures) = LibraryLoader.load(paths: [library])
            // A file that cannot be read now keeps its links: it may be readable later. (One
            // with no entries links nothing.)
            if failures.contains(where: { $0.reason != .noEntries }) {
                Console.error("bibread: \(library) cannot be read; its PDFs stay in the index")
                linked[library] = try index.paths(linkedBy: library)
                continue
            }
            linked[library] = LibraryPDFs(library: loaded).pathsByLibrary[library] ?? []
        }
        let summary = try index.prune(libraries: linked)
        Console.error("Pruned the full-text index: \(summary.removed) PDF\(summary.removed == 1 ? "" : "s") no library links or gone from disk, "
                      + "\(summary.documentsDeleted) document\(summary.documentsDeleted == 1 ? "" : "s") deleted")
    }
}
