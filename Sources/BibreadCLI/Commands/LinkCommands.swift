import ArgumentParser
import BibModel
import DiskIO
import Foundation
import OpenWith
import Reader
import SyncEngine

extension Intention: ExpressibleByArgument {}

/// `bibread link KEY[:PAGES]…`: prints the link to references and pages.
struct LinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link", abstract: "Print a bibread:// link to references and pages.",
        discussion: """
        Each target is a cite key, with a page or a page range: knuth84, knuth84:12, \
        knuth84:12-14. Pages are printed pages (page labels), as in a citation; knuth84:#12 is \
        the 12th page of the file (written %23 in the link). Several targets to the same paper in a row form one group. Anyone can \
        build these links: bibread://open?refs=[KEY:12-14,KEY:20],[KEY2]&library=NAME&intention=read.
        """)

    @Argument(help: ArgumentHelp("Cite keys with optional printed pages: KEY, KEY:12, KEY:12-14; KEY:#12 for the 12th page of the file.",
                                 valueName: "key[:pages]"))
    var targets: [String]

    @Option(help: "What the link is for: read, study, cite or listen.")
    var intention: Intention = .read

    @Option(help: ArgumentHelp("The library's name to put in the link (a remote's name or a .bib file name).", valueName: "name"))
    var library: String?

    func validate() throws {
        if targets.isEmpty { throw ValidationError("give at least one cite key") }
    }

    func run() throws {
        var papers: [PaperReference] = []
        for target in targets {
            do {
                let paper = try ReferenceLink.parseTarget(target)
                if let last = papers.last, last.key.lowercased() == paper.key.lowercased(), !paper.pages.isEmpty, !last.pages.isEmpty,
                   last.numbering == paper.numbering {
                    papers[papers.count - 1].pages += paper.pages
                } else {
                    papers.append(paper)
                }
            } catch let error as ReferenceLinkError {
                Console.error("bibread: \(error)\n\(error.pointing(at: target))")
                throw ExitCode(64)
            }
        }
        let link = ReferenceLink(papers: papers, library: library, intention: intention)
        if link.url.count > ReferenceLink.maxLength || papers.count > ReferenceLink.maxPapers {
            Console.error("bibread: the link would be too long (at most \(ReferenceLink.maxPapers) papers, \(ReferenceLink.maxLength) characters)")
            throw ExitCode(64)
        }
        Console.print(link.url)
    }
}

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
            var options = ReaderApp.Options(paths: ReaderApp.currentLibraryPaths(given: try RemoteResolution.libraryPaths(libraries)))
            options.importSource = link
            let status = ReaderApp.run(options)
            if status != 0 { throw ExitCode(status) }
            return
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
        let status = ReaderApp.run(options)
        if status != 0 { throw ExitCode(status) }
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
                        object["pdf"] = entry.links.files.first(where: \.isPDF).flatMap { FileLocation.of($0).path } as Any
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
enum BookmarkLinkCheck {
    static func isBookmarksLink(_ text: String) -> Bool {
        let lowered = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return lowered.hasPrefix("bibread://bookmarks?") || lowered.hasPrefix("bibread://downloadbookmarks?")
    }
}

/// The library a link's `library=` names.
enum LinkLibrary {
    /// `--library` first; else the link's library: a synced remote's name, a path, or the file
    /// name of one of the libraries bibread knows (the configured one, the last opened, the
    /// synced ones); else the reader's current library.
    static func paths(named name: String?, override: [String]) throws -> [String] {
        if !override.isEmpty { return ReaderApp.currentLibraryPaths(given: try RemoteResolution.libraryPaths(override)) }
        let current = ReaderApp.currentLibraryPaths(given: [])
        guard let name, !name.isEmpty else { return current }
        let synced = RemoteLocations(name: name).libraryFiles
        if !name.contains("/"), !synced.isEmpty { return ReaderApp.currentLibraryPaths(given: synced) }
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

/// `bibread handlers`: the apps of the "open with" menu.
struct HandlersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "handlers", abstract: "List the apps bibread can open references with.",
        discussion: """
        Shows the installed apps (found on PATH) for each intention, and those marked \
        always_show with how to install them. The registry ships with bibread; add or override \
        entries with [[handler]] tables in config.toml (id, name, argv, stdin, intentions, \
        style, package, always_show, program_env, disabled).
        """)

    @Option(help: "Only the apps for this intention: read, study, cite or listen.")
    var intention: Intention?

    @Flag(help: "Also the apps that are not installed.")
    var all = false

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let config = Config.load(from: Directories().config)
        let (registry, problems) = HandlerRegistry.load(user: config.handlerSource?.text, userPath: config.handlerSource?.path ?? "config.toml")
        for problem in problems { Console.error("bibread: \(problem)") }
        let environment = ProcessInfo.processInfo.environment
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        let everything = Set(Placeholder.allCases.map(\.canonical))
        let intentions = intention.map { [$0] } ?? Intention.allCases
        if json {
            var report: [[String: Any]] = []
            for wanted in intentions {
                for item in registry.menu(for: wanted, available: everything, path: path, environment: environment, showAll: all) {
                    var object: [String: Any] = ["intention": wanted.rawValue, "id": item.entry.id, "name": item.entry.name,
                                                 "argv": item.entry.argv, "style": item.entry.style.rawValue, "installed": item.isRunnable]
                    object["program"] = item.executable
                    object["install"] = item.installHint
                    object["package"] = item.entry.package
                    object["stdin"] = item.entry.standardInput
                    report.append(object)
                }
            }
            let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .withoutEscapingSlashes])
            Console.print(String(decoding: data, as: UTF8.self))
            return
        }
        for (index, wanted) in intentions.enumerated() {
            let items = registry.menu(for: wanted, available: everything, path: path, environment: environment, showAll: all)
            if index > 0 { Console.print("") }
            Console.print(wanted.rawValue.capitalized)
            if items.isEmpty { Console.print("  (no app installed; --all lists the ones bibread knows)") }
            let idWidth = items.map(\.entry.id.count).max() ?? 0
            for item in items {
                let id = item.entry.id.padding(toLength: idWidth, withPad: " ", startingAt: 0)
                let state = item.isRunnable ? (item.executable ?? "built in (terminal clipboard)") : "not installed: \(item.installHint ?? "?")"
                Console.print("  \(item.isRunnable ? "✓" : "✗") \(id)  \(item.entry.name)  [\(state)]")
            }
        }
    }
}

/// `bibread install-handler`: makes bibread:// links open bibread.
struct InstallHandlerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install-handler", abstract: "Make bibread:// links open bibread (a desktop entry for x-scheme-handler/bibread).",
        discussion: """
        Writes $XDG_DATA_HOME/applications/bibread.desktop (Terminal=true, Exec=bibread open %u) \
        and makes it the default for bibread: links with xdg-mime, so a link clicked in a browser \
        or a mail client opens bibread in your terminal emulator.
        """)

    @Flag(help: "Remove the desktop entry and the association instead.")
    var uninstall = false

    func run() throws {
        // The XDG folders themselves (BaseDirectories names bibread's folders inside them).
        let base = BaseDirectories()
        let dataHome = base.data.deletingLastPathComponent()
        let configHome = base.config.deletingLastPathComponent()
        if uninstall {
            do {
                let report = try DesktopIntegration.uninstall(dataHome: dataHome, configHome: configHome)
                if let file = report.removedDesktopFile { Console.print("Removed \(file.path)") }
                for list in report.editedAssociations { Console.print("Removed bibread from \(list.path)") }
                if report.removedDesktopFile == nil && report.editedAssociations.isEmpty { Console.print("Nothing to remove: bibread was not installed as a link handler") }
            } catch {
                Console.error("bibread: \(error)")
                throw ExitStatus.problems
            }
            return
        }
        let executable = Self.ownExecutable()
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let xdgMime = Launcher.findExecutable("xdg-mime", path: path)
        do {
            let report = try DesktopIntegration.install(bibreadExecutable: executable, dataHome: dataHome, xdgMime: xdgMime)
            Console.print("Wrote \(report.desktopFile.path)")
            switch report.xdgMime {
            case .notAvailable:
                Console.error("warning: xdg-mime is not installed (sudo apt install xdg-utils): the entry is written but not made the default for bibread: links")
            case .ran(let end) where end.succeeded:
                Console.print("bibread: links now open with \(executable) open LINK")
            case .ran(let end):
                Console.error("bibread: xdg-mime default failed (\(end))")
                throw ExitStatus.problems
            case .failedToStart(let error):
                Console.error("bibread: cannot run xdg-mime: \(error)")
                throw ExitStatus.problems
            }
        } catch let error as DesktopIntegrationError {
            Console.error("bibread: \(error)")
            throw ExitStatus.problems
        }
    }

    /// This program's absolute path (from /proc, so a relative or PATH start gives the file).
    static func ownExecutable() -> String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    }
}
