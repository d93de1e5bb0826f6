import ArgumentParser
import BibModel
import BibreadServices
import Foundation
import Reader
import ReaderCore
import SyncEngine

/// `bibread open LINK`: the reader at the link's first target, or (`--print`) its targets.
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open", abstract: "Open a bibread:// link, a KEY[:PAGE] or a citation in the reader.",
        discussion: """
        Accepts bibread://open?refs=… links, a bare KEY or KEY:PAGE, pandoc citations \
        ('[@knuth84, p. 33; @lamport94]') and LaTeX ones ('\\cite[p.~5]{key1,key2}'). The reader \
        opens the first target at its page and lists all of them in the group "From link". \
        Nothing is run for a link without your action: a link meant for citing or listening \
        opens the "open with" menu, where you choose. bibread://bookmarks links are imported \
        as reading lists. The library is the one the link names (a synced remote's name or a \
        .bib file name), else --library, else the reader's current library.
        """)

    @Argument(help: ArgumentHelp("The link, key or citation.", valueName: "link"))
    var link: String

    @Option(name: .customLong("library"), help: ArgumentHelp("The library to look the keys up in (repeatable).", valueName: "library.bib"))
    var libraries: [String] = []

    @Flag(help: "Print the parsed targets instead of opening the reader.")
    var print = false

    @Flag(help: "With --print: print JSON.")
    var json = false

    func run() throws {
        if BookmarkLinkCheck.isBookmarksLink(link) {
            var options = ReaderApp.Options(paths: LibraryPaths.current(given: try RemoteResolution.libraryPaths(libraries)))
            options.importSource = link
            options.syncExecutable = ThisProgram.path
            ReaderApp.endProcess(ReaderApp.run(options))
        }
        let parsed: ReferenceLink
        do {
            parsed = try ReferenceLink.parse(link)
        } catch let error as ReferenceLinkError {
            Console.error("bibread: \(error)\n\(error.pointing(at: link))")
            throw ExitCode(64)
        }
        let paths = try LinkLibrary.paths(named: parsed.library, override: libraries)
        if print || json || !Console.isTerminal {
            try printTargets(parsed, paths: paths)
            return
        }
        var options = ReaderApp.Options(paths: paths)
        options.link = parsed
        options.syncExecutable = ThisProgram.path
        ReaderApp.endProcess(ReaderApp.run(options))
    }

    private func printTargets(_ parsed: ReferenceLink, paths: [String]) throws {
        let library: Library? = paths.isEmpty ? nil : LoadedLibrary.load(paths: paths).library
        if json {
            let targets: [[String: Any]] = parsed.papers.map { paper in
                var object: [String: Any] = ["key": paper.key, "pages": paper.pages.map { [$0.lowerBound, $0.upperBound] },
                                             "numbering": paper.numbering.rawValue]
                if let library {
                    let entry = library.entries(withKey: paper.key).first
                    object["found"] = entry != nil
                    if let entry {
                        object["title"] = entry.title
                        object["pdf"] = entry.links.files.first(where: \.isPDF).flatMap { LinkedFileLocator.shared.localPath(of: $0) } as Any
                        object["pageProblem"] = Self.pageProblem(of: paper, in: entry)
                    }
                }
                return object
            }
            var report: [String: Any] = ["intention": parsed.intention.rawValue, "targets": targets, "link": parsed.url]
            report["library"] = parsed.library
            report["libraryFiles"] = paths
            let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .withoutEscapingSlashes])
            Console.print(String(decoding: data, as: UTF8.self))
            try Self.failIfKeysAreMissing(parsed, in: library, paths: paths)
            return
        }
        Console.print("\(parsed.intention.rawValue): \(parsed.papers.count) reference\(parsed.papers.count == 1 ? "" : "s")"
                      + (paths.isEmpty ? " (no library to look them up in)" : " in \(paths.joined(separator: ", "))"))
        for paper in parsed.papers {
            let mark = paper.numbering == .physical ? "#" : ""
            let pages = paper.pages.map { mark + ($0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)–\($0.upperBound)") }
            var line = "  \(paper.key)"
            if !pages.isEmpty { line += " p. " + pages.joined(separator: ", ") }
            var problem: String?
            if let library {
                if let entry = library.entries(withKey: paper.key).first {
                    line += " · \(entry.creators.display) (\(entry.year ?? "n.d.")) \(entry.title)"
                    problem = Self.pageProblem(of: paper, in: entry)
                } else {
                    line += "  (not in the library)"
                }
            }
            Console.print(line)
            if let problem { Console.print("    \(problem)") }
        }
        try Self.failIfKeysAreMissing(parsed, in: library, paths: paths)
    }

    /// Says which keys of the link `library` does not have (with similar keys, as `show` does)
    /// and exits with status 1, after the targets were printed; nothing when there is no library.
    private static func failIfKeysAreMissing(_ parsed: ReferenceLink, in library: Library?, paths: [String]) throws {
        guard let library else { return }
        let missing = parsed.papers.map(\.key).filter { library.entries(withKey: $0).isEmpty }
        guard !missing.isEmpty else { return }
        for key in missing { Console.error(LoadedLibrary.noReferenceMessage(key: key, in: library, paths: paths)) }
        throw ExitStatus.problems
    }

    /// What is wrong with the pages `paper` names in the PDF of `entry` (a page past the end, by
    /// the reader's rule for page numbers), if the PDF is on this machine and can be read.
    static func pageProblem(of paper: PaperReference, in entry: Entry) -> String? {
        guard !paper.pages.isEmpty, let info = PDFPageNumbers.info(of: entry) else { return nil }
        for number in paper.pages.flatMap({ [$0.lowerBound, $0.upperBound] }) {
            let resolution = info.resolve(PageRequest(number, numbering: paper.numbering))
            if case .pastTheEnd = resolution { return info.note(on: resolution) }
        }
        return nil
    }
}

/// Tells `bibread://bookmarks` and `downloadbookmarks` links from reference links.
private enum BookmarkLinkCheck {
    static func isBookmarksLink(_ text: String) -> Bool {
        let lowered = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return lowered.hasPrefix("bibread://bookmarks?") || lowered.hasPrefix("bibread://downloadbookmarks?")
    }
}

/// The library a link's `library=` names.
private enum LinkLibrary {
    /// `--library` first; else the link's library: a synced remote's name, a path, or the file
    /// name of one of the libraries bibread knows (the configured one, the last opened, the
    /// synced ones); else the reader's current library.
    static func paths(named name: String?, override: [String]) throws -> [String] {
        if !override.isEmpty { return LibraryPaths.current(given: try RemoteResolution.libraryPaths(override)) }
        let current = LibraryPaths.current(given: [])
        guard let name, !name.isEmpty else { return current }
        let synced = RemoteLocations(name: name).libraryFiles
        if !name.contains("/"), !synced.isEmpty { return LibraryPaths.current(given: synced) }
        if name.contains("/") {
            let expanded = (name as NSString).expandingTildeInPath
            if FileManager.default.fileExists(atPath: expanded) { return [expanded] }
        }
        let fileName = (name as NSString).lastPathComponent
        let config = Config.load(from: Directories().config)
        var known = current + config.libraries
        for remote in config.remotes { known += RemoteLocations(name: remote.name).libraryFiles }
        if let match = known.first(where: { ($0 as NSString).lastPathComponent == fileName }) {
            return current.contains(match) ? current : [match]
        }
        if current.isEmpty {
            Console.error("bibread: the link names the library '\(name)', which bibread does not know: say which with --library FILE.bib")
            throw ExitStatus.problems
        }
        Console.error("warning: the link names the library '\(name)', which bibread does not know; looking in \(current.joined(separator: ", "))")
        return current
    }
}
