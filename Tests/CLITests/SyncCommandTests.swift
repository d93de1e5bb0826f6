import BibreadTestSupport
import Foundation
import Testing

/// `bibread sync` and `bibread cache`, run as a user runs them, against a real WebDAV server.
@Suite("bibread sync and cache")
struct SyncCommandTests {
    /// The sample library served over WebDAV, and this machine's XDG folders.
    final class Setup {
        let root: URL
        let server: WebDAVServer
        let environment: [String: String]

        init(config: String? = nil) throws {
            root = try Fixtures.temporaryDirectory()
            let remote = root.appendingPathComponent("remote")
            try Fixtures.copySampleLibrary(to: remote)
            server = try WebDAVServer.start(root: remote)
            environment = Fixtures.isolatedEnvironment(under: root)
            if let config {
                let folder = root.appendingPathComponent("config/bibread")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try config.replacingOccurrences(of: "$URL", with: server.baseURL.absoluteString)
                    .write(to: folder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
            }
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(at: root)
        }

        func bibread(_ arguments: [String]) throws -> ProcessResult {
            try ProcessRunner.bibread(arguments, environment: environment)
        }
    }

    /// config.toml naming the test server as the remote `lab`.
    static let labRemote = """
        [[remote]]
        name = "lab"
        url = "$URL"
        """

    @Test func syncThenUseTheRemoteByName() throws {
        let setup = try Setup(config: Self.labRemote)
        let sync = try setup.bibread(["sync", "lab", "--group", "Typesetting"])
        #expect(sync.status == 0, "\(sync.standardError)")
        #expect(sync.standardError.contains("library.bib: updated (25 references)"))
        #expect(sync.standardError.contains("Done:"))
        let list = try setup.bibread(["list", "lab"])
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.standardOutput.split(separator: "\n").count == 25)
        // A cached PDF reads like a local one.
        let read = try setup.bibread(["read", "lab", "knuth1984texbook", "--page", "1", "--width", "60"])
        #expect(read.status == 0, "\(read.standardError)")
        #expect(read.standardOutput.contains("Origins"))
        // One that was not selected says it is not here.
        let notCached = try setup.bibread(["read", "lab", "goedel1931formal"])
        #expect(notCached.status == 1)
        #expect(notCached.standardError.contains("no PDF of goedel1931formal is on this machine"))

        let status = try setup.bibread(["cache", "status", "lab", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [[String: Any]])
        let files = try #require(report.first?["files"] as? [[String: Any]])
        #expect(files.contains { ($0["path"] as? String) == "papers/tex-tour.pdf" && ($0["references"] as? [String]) == ["knuth1984texbook"] })
        #expect(!files.contains { ($0["path"] as? String) == "papers/incompleteness.pdf" })

        let purge = try setup.bibread(["cache", "purge", "lab", "--all"])
        #expect(purge.status == 0)
        #expect(purge.standardOutput.contains("removed \(files.count) PDF"))
        let after = try setup.bibread(["cache", "status", "lab"])
        #expect(after.standardOutput.hasPrefix("lab: 0 PDFs"))
        // The library itself stays.
        #expect(try setup.bibread(["list", "lab"]).standardOutput.split(separator: "\n").count == 25)
    }

    /// A remote first synced by URL is synced again by the name it was kept under.
    @Test func aRemoteSyncedByURLIsSyncedAgainByItsName() throws {
        let setup = try Setup()
        let first = try setup.bibread(["sync", setup.server.baseURL.absoluteString, "--name", "lab", "--group", "Typesetting"])
        #expect(first.status == 0, "\(first.standardError)")
        let again = try setup.bibread(["sync", "lab", "--group", "Typesetting"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardError.contains("library.bib: up to date"), "\(again.standardError)")
        #expect(again.standardError.contains("0 downloaded"))
        let unknown = try setup.bibread(["sync", "elsewhere"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("'elsewhere' is neither a configured remote"))
    }

    /// Two folders whose paths end in the same name are two remotes: the second is kept under
    /// a name of its own and says so, instead of replacing the first one's library (issue 26,
    /// item 11); syncing either again finds its own.
    @Test func twoURLsEndingInTheSameFolderNameAreTwoRemotes() throws {
        let setup = try Setup()
        let first = setup.root.appendingPathComponent("a/remote1")
        let second = setup.root.appendingPathComponent("b/remote1")
        for (folder, title) in [(first, "First"), (second, "Second")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try "@misc{only, title = {\(title) library}}\n".write(to: folder.appendingPathComponent("library.bib"), atomically: true, encoding: .utf8)
        }
        let one = try setup.bibread(["sync", first.path])
        #expect(one.status == 0, "\(one.standardError)")
        let two = try setup.bibread(["sync", second.path])
        #expect(two.status == 0, "\(two.standardError)")
        #expect(two.standardError.contains("kept as 'remote1-2'"), "\(two.standardError)")
        #expect(try setup.bibread(["list", "remote1"]).standardOutput.contains("First library"))
        #expect(try setup.bibread(["list", "remote1-2"]).standardOutput.contains("Second library"))
        // Each URL finds its own name again, quietly.
        let again = try setup.bibread(["sync", second.path])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(!again.standardError.contains("kept as"), "\(again.standardError)")
        #expect(again.standardError.contains("library.bib: up to date"), "\(again.standardError)")
        #expect(try setup.bibread(["list", "remote1"]).standardOutput.contains("First library"))
        // --name still chooses.
        let named = try setup.bibread(["sync", second.path, "--name", "second"])
        #expect(named.status == 0, "\(named.standardError)")
        #expect(!named.standardError.contains("kept as"))
    }

    /// A .bib that drops half the references is refused and kept in `.rejected/`; `--accept`
    /// puts it in place, keeps the replaced copy in `.previous/`, and the refused download is
    /// no longer waiting in `.rejected/` (it was left there before, as if still refused).
    @Test func acceptedLibraryLeavesNothingRejectedBehind() throws {
        let setup = try Setup()
        let remote = setup.root.appendingPathComponent("shelf")
        try FileManager.default.createDirectory(at: remote, withIntermediateDirectories: true)
        let library = remote.appendingPathComponent("lib.bib")
        func publish(_ count: Int) throws {
            try (0..<count).map { "@misc{k\($0), title = {Title \($0)}}\n" }.joined().write(to: library, atomically: true, encoding: .utf8)
        }
        try publish(40)
        #expect(try setup.bibread(["sync", remote.path]).status == 0)
        try publish(20)
        let refused = try setup.bibread(["sync", "shelf"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("it has 20 references where the copy in use has 40: 20 would be dropped"), "\(refused.standardError)")
        let folder = setup.root.appendingPathComponent("data/bibread/remotes/shelf")
        let rejected = folder.appendingPathComponent(".rejected/lib.bib")
        #expect(FileManager.default.fileExists(atPath: rejected.path))
        #expect(try setup.bibread(["list", "shelf"]).standardOutput.contains("Title 39"))
        let accepted = try setup.bibread(["sync", "shelf", "--accept"])
        #expect(accepted.status == 0, "\(accepted.standardError)")
        #expect(!FileManager.default.fileExists(atPath: rejected.path), "the accepted download is still in .rejected/")
        let previous = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(".previous").path)
        #expect(previous.count == 1 && previous[0].hasPrefix("lib.") && previous[0].hasSuffix(".bib"), "\(previous)")
        #expect(!(try setup.bibread(["list", "shelf"]).standardOutput.contains("Title 39")))
    }

    /// A URL whose last folder is `..` (plain or percent-encoded) names the folder it resolves
    /// to: the library and bibread's own files stay inside a remote's own folder, never one level
    /// up in bibread's data or cache folder.
    @Test func aURLEndingInDotDotIsKeptUnderTheFolderItMeans() throws {
        let setup = try Setup()
        let library = setup.root.appendingPathComponent("shelf")
        try FileManager.default.createDirectory(at: library.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try "@misc{only, title = {Shelf library}}\n".write(to: library.appendingPathComponent("library.bib"), atomically: true, encoding: .utf8)
        let data = setup.root.appendingPathComponent("data/bibread")
        let cache = setup.root.appendingPathComponent("cache/bibread")
        let fileURL = library.appendingPathComponent("sub").absoluteString + ".."
        let httpURL = setup.server.baseURL.appendingPathComponent("papers").absoluteString + "/%2e%2e/"
        for url in [fileURL, httpURL] {
            let run = try setup.bibread(["sync", url])
            if url == fileURL { #expect(run.status == 0, "\(url): \(run.standardError)") }
            #expect(!run.standardError.contains("'..'") && !run.standardError.contains("'%2e%2e'"), "\(run.standardError)")
            for folder in [data, data.appendingPathComponent("remotes"), cache, data.deletingLastPathComponent(), cache.deletingLastPathComponent()] {
                let strays = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { name in
                    var isFolder: ObjCBool = false
                    return FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder) && !isFolder.boolValue
                }
                #expect(strays.isEmpty, "\(url) wrote \(strays) into \(folder.path)")
            }
        }
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("remotes/shelf/library.bib").path))
        #expect(try setup.bibread(["list", "shelf"]).standardOutput.contains("Shelf library"))
    }

    /// A remote known here with no .bib yet (configured and never synced, or whose first sync
    /// failed) says how to bring it, not "no such file"; the other libraries named still load,
    /// and none named is not taken to mean the default library.
    @Test func aRemoteWithNoLibraryYetSaysHowToSyncIt() throws {
        let setup = try Setup(config: Self.labRemote)
        let samples = Fixtures.samples.appendingPathComponent("library.bib").path
        let hint = "bibread: remote 'lab' has no library on this machine yet; run 'bibread sync lab'"
        for command in [["list", "lab"], ["show", "lab", "knuth1984texbook"], ["check", "lab"], ["lab"]] {
            let result = try setup.bibread(command)
            #expect(result.status == 2, "\(command): \(result.standardError)")
            #expect(result.standardError.contains(hint), "\(command): \(result.standardError)")
            #expect(result.standardOutput.isEmpty, "\(command): \(result.standardOutput)")
        }
        let withOther = try setup.bibread(["list", "lab", samples])
        #expect(withOther.status == 0, "\(withOther.standardError)")
        #expect(withOther.standardError.contains(hint))
        #expect(withOther.standardOutput.split(separator: "\n").count == 25)

        // Port 1 of the loopback: refused at once.
        let failed = try setup.bibread(["sync", "http://127.0.0.1:1/", "--name", "gone"])
        #expect(failed.status == 1, "\(failed.standardError)")
        let list = try setup.bibread(["list", "gone"])
        #expect(list.status == 2)
        #expect(list.standardError.contains("run 'bibread sync gone'"), "\(list.standardError)")
        // A name nobody knows is still a missing file.
        let unknown = try setup.bibread(["list", "elsewhere"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("elsewhere: no such file"), "\(unknown.standardError)")

        let sync = try setup.bibread(["sync", "lab"])
        #expect(sync.status == 0, "\(sync.standardError)")
        let after = try setup.bibread(["list", "lab"])
        #expect(after.status == 0, "\(after.standardError)")
        #expect(!after.standardError.contains("run 'bibread sync"))
        #expect(after.standardOutput.split(separator: "\n").count == 25)
    }

    /// `cache status` and `cache purge` work on remotes known here only: a typo is an error that
    /// makes nothing, no remote at all says how to get one, and each remote shows its limit.
    @Test func cacheCommandsNameOnlyKnownRemotesAndShowTheLimit() throws {
        let setup = try Setup()
        let cacheRoot = setup.root.appendingPathComponent("cache/bibread")
        let none = try setup.bibread(["cache", "status"])
        #expect(none.status == 0, "\(none.standardError)")
        #expect(none.standardOutput.contains("No remotes synced yet"), "\(none.standardOutput)")
        #expect(try setup.bibread(["cache", "status", "--json"]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        for command in [["cache", "status", "nosuch"], ["cache", "purge", "nosuch", "--all"]] {
            let result = try setup.bibread(command)
            #expect(result.status == 64, "\(command): \(result.standardError)")
            #expect(result.standardError.contains("bibread: no remote named 'nosuch'"), "\(command): \(result.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: cacheRoot.path), "a cache command for an unknown remote made \(cacheRoot.path)")

        // Configured, never synced: purging finds nothing and makes nothing.
        let configured = try Setup(config: "cache_limit = \"500MB\"\n" + Self.labRemote)
        let purge = try configured.bibread(["cache", "purge", "lab", "--all"])
        #expect(purge.status == 0, "\(purge.standardError)")
        #expect(purge.standardOutput.contains("lab: removed 0 PDFs"))
        #expect(!FileManager.default.fileExists(atPath: configured.root.appendingPathComponent("cache/bibread/lab").path))

        let sync = try configured.bibread(["sync", "lab", "--all-pdfs"])
        #expect(sync.status == 0, "\(sync.standardError)")
        let status = try configured.bibread(["cache", "status"])
        #expect(status.standardOutput.hasPrefix("lab: 5 PDFs, "), "\(status.standardOutput)")
        #expect(status.standardOutput.contains(" of 500.0 MB in "), "\(status.standardOutput)")
        let json = try configured.bibread(["cache", "status", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(report.first?["limit"] as? Int == 500_000_000)
        let typo = try configured.bibread(["cache", "status", "labb"])
        #expect(typo.status == 64)
        #expect(typo.standardError.contains("(remotes: lab)"), "\(typo.standardError)")
    }

    /// The cache folder also holds the full-text index (`fulltext.sqlite` and its `-wal` and
    /// `-shm`): those files are not remotes, so `cache status` does not list them and `cache
    /// purge` refuses them as it refuses any unknown name.
    @Test func theFullTextIndexFilesAreNotRemotes() throws {
        let setup = try Setup(config: Self.labRemote)
        let cacheRoot = setup.root.appendingPathComponent("cache/bibread")
        try FileManager.default.createDirectory(at: cacheRoot, withIntermediateDirectories: true)
        for name in ["fulltext.sqlite", "fulltext.sqlite-wal", "fulltext.sqlite-shm"] {
            try Data("not a remote".utf8).write(to: cacheRoot.appendingPathComponent(name))
        }
        let sync = try setup.bibread(["sync", "lab", "--group", "Typesetting"])
        #expect(sync.status == 0, "\(sync.standardError)")
        let status = try setup.bibread(["cache", "status"])
        #expect(status.status == 0, "\(status.standardError)")
        #expect(status.standardOutput.hasPrefix("lab: "), "\(status.standardOutput)")
        #expect(!status.standardOutput.contains("fulltext"), "\(status.standardOutput)")
        let json = try setup.bibread(["cache", "status", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(report.compactMap { $0["remote"] as? String } == ["lab"])
        for name in ["fulltext.sqlite", "fulltext.sqlite-wal"] {
            let purge = try setup.bibread(["cache", "purge", name, "--all"])
            #expect(purge.status == 64, "\(name): \(purge.standardOutput)")
            #expect(purge.standardError.contains("bibread: no remote named '\(name)' (remotes: lab)"), "\(purge.standardError)")
        }
        #expect(FileManager.default.fileExists(atPath: cacheRoot.appendingPathComponent("fulltext.sqlite").path))
    }

    /// A sync that ends at once (its help, a bad option) exits cleanly every time: libcurl is
    /// set up on the thread that uses it, so an exit never runs OpenSSL's clean-up while it is
    /// being set up (when it was loaded on another thread, about 1 run in 30 crashed so).
    @Test func aSyncThatEndsAtOnceExitsCleanlyEveryTime() throws {
        for _ in 0..<40 {
            let help = try ProcessRunner.bibread(["sync", "--help"])
            #expect(help.status == 0, "\(help.standardError)")
            let bad = try ProcessRunner.bibread(["sync", "--parallel", "99", "somewhere"])
            #expect(bad.status == 64, "\(bad.standardError)")
        }
    }

    @Test func jsonEventsAndADryRun() throws {
        let setup = try Setup()
        let url = setup.server.baseURL.absoluteString
        let first = try setup.bibread(["sync", url, "--json"])
        #expect(first.status == 0, "\(first.standardError)")
        let events = first.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(events.first?["event"] as? String == "library")
        #expect(events.last?["event"] as? String == "finished")

        let dry = try setup.bibread(["sync", url, "--all-pdfs", "--dry-run", "--json"])
        #expect(dry.status == 0)
        let planned = dry.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.first { $0["event"] as? String == "planned" }
        #expect(planned?["files"] as? Int == 5)
        let status = try setup.bibread(["cache", "status", "--json"])
        #expect(!status.standardOutput.contains("papers/"), "a dry run downloads nothing")
    }

    /// A PDF a sync looked for and the remote does not have is not "on the remote only" (which
    /// means "can be fetched"): its reference is Without PDF. A PDF no sync has looked for (the
    /// .bib alone was synced) stays remote only; a dry run records nothing; a sync that finds
    /// the file on the remote takes it back.
    @Test func aPDFTheRemoteLacksIsWithoutPDFNotRemoteOnly() throws {
        let setup = try Setup(config: Self.labRemote)
        let key = "turing1936computable"
        func members(_ group: String) throws -> [String] {
            let list = try setup.bibread(["list", "lab", "--group", group])
            #expect(list.status == 0, "\(list.standardError)")
            return list.standardOutput.split(separator: "\n").compactMap { $0.split(separator: "\t").first.map(String.init) }
        }
        func count(_ group: String) throws -> Int? {
            let groups = try setup.bibread(["groups", "lab", "--json"])
            let tree = try JSONSerialization.jsonObject(with: Data(groups.standardOutput.utf8)) as? [[String: Any]]
            return tree?.first { $0["name"] as? String == group }?["count"] as? Int
        }
        // A dry run with every PDF records nothing; then the .bib alone: no PDF was looked for.
        let dry = try setup.bibread(["sync", "lab", "--all-pdfs", "--dry-run"])
        #expect(dry.status == 0, "\(dry.standardError)")
        let bibOnly = try setup.bibread(["sync", "lab"])
        #expect(bibOnly.status == 0, "\(bibOnly.standardError)")
        #expect(try members("On the remote only").contains(key))

        let all = try setup.bibread(["sync", "lab", "--all-pdfs"])
        #expect(all.status == 0, "\(all.standardError)")
        #expect(all.standardError.contains("papers/missing.pdf is linked but not on the remote"), "\(all.standardError)")
        #expect(try count("On the remote only") == 0)
        #expect(try !members("On the remote only").contains(key))
        #expect(try members("Without PDF").contains(key))

        // Now the remote has it: a dry run still records nothing; a sync brings it.
        let papers = setup.root.appendingPathComponent("remote/papers")
        try FileManager.default.copyItem(at: papers.appendingPathComponent("incompleteness.pdf"), to: papers.appendingPathComponent("missing.pdf"))
        #expect(try setup.bibread(["sync", "lab", "--all-pdfs", "--dry-run"]).status == 0)
        #expect(try members("Without PDF").contains(key))
        let found = try setup.bibread(["sync", "lab", "--all-pdfs"])
        #expect(found.status == 0, "\(found.standardError)")
        #expect(try members("With PDF").contains(key))
        #expect(try !members("Without PDF").contains(key))
    }

    /// A dry run's last line says what a sync would do and that nothing changed (not "Done"),
    /// and its JSON says `"dryRun": true`.
    @Test func aDryRunSaysWhatItWouldDoAndThatNothingChanged() throws {
        let setup = try Setup(config: Self.labRemote)
        let dry = try setup.bibread(["sync", "lab", "--all-pdfs", "--dry-run"])
        #expect(dry.status == 0, "\(dry.standardError)")
        let last = dry.standardError.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last == "Dry run: 5 PDFs would be downloaded (276 kB), 0 already current, 2 not on the remote; nothing was changed",
                "\(dry.standardError)")
        #expect(!dry.standardError.contains("Done"), "\(dry.standardError)")
        let json = try setup.bibread(["sync", "lab", "--all-pdfs", "--dry-run", "--json"])
        let finished = try #require(events(json).last { $0["event"] as? String == "finished" }, "\(json.standardOutput)")
        #expect(finished["dryRun"] as? Bool == true, "\(finished)")
        #expect(finished["wouldDownload"] as? Int == 5, "\(finished)")
        let real = try setup.bibread(["sync", "lab", "--all-pdfs", "--json"])
        let realFinished = try #require(events(real).last { $0["event"] as? String == "finished" })
        #expect(realFinished["dryRun"] as? Bool == false, "\(realFinished)")
        let again = try setup.bibread(["sync", "lab", "--all-pdfs", "--dry-run"])
        #expect(again.standardError.hasSuffix("Dry run: 0 PDFs would be downloaded (0 B), 5 already current, 2 not on the remote; nothing was changed\n"),
                "\(again.standardError)")
    }

    /// The JSON events of a sync, one object a line.
    private func events(_ result: ProcessResult) -> [[String: Any]] {
        result.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The remote paths a sync downloaded, from its JSON events.
    private func downloaded(_ result: ProcessResult) -> Set<String> {
        Set(events(result).filter { $0["event"] as? String == "file-finished" }.compactMap { $0["path"] as? String })
    }

    /// A dry run fetches the remote's current .bib into a place of its own, plans from it and
    /// changes nothing here; the real run that follows downloads exactly what it planned. On a
    /// first sync (no .bib here yet) and after the remote's .bib changed alike.
    @Test func aDryRunPlansFromTheRemotesCurrentLibraryAndChangesNothing() throws {
        let setup = try Setup(config: Self.labRemote)
        func tree(_ folder: String) -> [String] {
            let url = setup.root.appendingPathComponent(folder)
            return (FileManager.default.enumerator(atPath: url.path)?.allObjects as? [String] ?? []).sorted()
        }
        let dry = try setup.bibread(["sync", "lab", "--group", "Typesetting", "--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.standardError)")
        let planned = try #require(events(dry).first { $0["event"] as? String == "planned" }, "\(dry.standardOutput)\n\(dry.standardError)")
        #expect(events(dry).contains { $0["event"] as? String == "library" && $0["outcome"] as? String == "would-update" })
        #expect(tree("data").isEmpty && tree("cache").isEmpty, "a dry run left \(tree("data")) \(tree("cache"))")
        let first = try setup.bibread(["sync", "lab", "--group", "Typesetting", "--json"])
        #expect(first.status == 0, "\(first.standardError)")
        let firstDownloads = downloaded(first)
        #expect(planned["files"] as? Int == firstDownloads.count && !firstDownloads.isEmpty, "planned \(planned), downloaded \(firstDownloads)")

        // The remote's .bib now links two more PDFs in the group.
        let remote = setup.root.appendingPathComponent("remote")
        let papers = remote.appendingPathComponent("papers")
        try FileManager.default.copyItem(at: papers.appendingPathComponent("shortest-paths.pdf"), to: papers.appendingPathComponent("added-one.pdf"))
        try FileManager.default.copyItem(at: papers.appendingPathComponent("incompleteness.pdf"), to: papers.appendingPathComponent("added-two.pdf"))
        let handle = try FileHandle(forWritingTo: remote.appendingPathComponent("library.bib"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("""

            @misc{addedOne, title = {Added one}, keywords = {typesetting}, file = {:papers/added-one.pdf:PDF}}
            @misc{addedTwo, title = {Added two}, keywords = {typesetting}, file = {:papers/added-two.pdf:PDF}}

            """.utf8))
        try handle.close()
        let before = (tree("data"), tree("cache"))
        let library = setup.root.appendingPathComponent("data/bibread/remotes/lab/library.bib")
        let libraryBefore = try Data(contentsOf: library)
        let dryAgain = try setup.bibread(["sync", "lab", "--group", "Typesetting", "--dry-run", "--json"])
        #expect(dryAgain.status == 0, "\(dryAgain.standardError)")
        let plannedAgain = try #require(events(dryAgain).first { $0["event"] as? String == "planned" })
        #expect(try Data(contentsOf: library) == libraryBefore, "a dry run replaced the library")
        #expect(tree("data") == before.0 && tree("cache") == before.1)
        let second = try setup.bibread(["sync", "lab", "--group", "Typesetting", "--json"])
        #expect(second.status == 0, "\(second.standardError)")
        #expect(downloaded(second) == ["papers/added-one.pdf", "papers/added-two.pdf"], "\(second.standardOutput)")
        #expect(plannedAgain["files"] as? Int == 2, "the dry run planned \(plannedAgain)")
        #expect(plannedAgain["current"] as? Int == firstDownloads.count)
    }

    /// Names that are not in the library are usage errors (status 1, as for `list --group`),
    /// not a sync of nothing that says it succeeded; a .bib download that is refused is a
    /// failure; `open --print` of a key that is not there fails; `cache purge --keep-group`
    /// with a group that is not there purges nothing.
    @Test func unknownNamesAndRefusedDownloadsAreFailures() throws {
        let setup = try Setup(config: Self.labRemote)
        let group = try setup.bibread(["sync", "lab", "--group", "NoSuchGroup"])
        #expect(group.status == 1, "\(group.standardError)")
        #expect(group.standardError.contains("bibread: no group named 'NoSuchGroup' (groups: "), "\(group.standardError)")
        // Only the error: no "Done: 0 downloaded" before it, as if the sync had run.
        #expect(!group.standardError.contains("Done"), "\(group.standardError)")
        let field = try setup.bibread(["sync", "lab", "--field", "NoSuchField"])
        #expect(field.status == 1, "\(field.standardError)")
        #expect(field.standardError.contains("bibread: no reference has a field named 'NoSuchField'"), "\(field.standardError)")
        let dryField = try setup.bibread(["sync", "lab", "--field", "NoSuchField", "--dry-run"])
        #expect(dryField.status == 1, "\(dryField.standardError)")
        #expect(!field.standardError.contains("Done") && !dryField.standardError.contains("Dry run:"), "\(field.standardError)\n\(dryField.standardError)")
        let good = try setup.bibread(["sync", "lab", "--group", "Typesetting"])
        #expect(good.status == 0, "\(good.standardError)")

        let keep = try setup.bibread(["cache", "purge", "lab", "--keep-group", "NoSuchGroup"])
        #expect(keep.status == 1, "\(keep.standardOutput)")
        #expect(keep.standardError.contains("no group named 'NoSuchGroup'"), "\(keep.standardError)")
        let status = try setup.bibread(["cache", "status", "lab"])
        #expect(!status.standardOutput.hasPrefix("lab: 0 PDFs"), "a purge keeping an unknown group removed everything: \(status.standardOutput)")

        // The remote's .bib gets an error the copy here does not have: refused, status 1.
        let handle = try FileHandle(forWritingTo: setup.root.appendingPathComponent("remote/library.bib"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n@article{broken, title = {Unclosed\n".utf8))
        try handle.close()
        let refused = try setup.bibread(["sync", "lab"])
        #expect(refused.status == 1, "\(refused.standardError)")
        #expect(refused.standardError.contains("library.bib: NOT replaced"), "\(refused.standardError)")
        let refusedDry = try setup.bibread(["sync", "lab", "--dry-run"])
        #expect(refusedDry.status == 1, "\(refusedDry.standardError)")
        #expect(refusedDry.standardError.contains("library.bib: would NOT be replaced"), "\(refusedDry.standardError)")

        let samples = Fixtures.samples.appendingPathComponent("library.bib").path
        let open = try setup.bibread(["open", "--print", "--library", samples, "[@knuth1984texbook, p. 3; @nosuchkey]"])
        #expect(open.status == 1, "\(open.standardOutput)")
        #expect(open.standardOutput.contains("nosuchkey  (not in the library)"), "\(open.standardOutput)")
        #expect(open.standardError.contains("bibread: no reference with key 'nosuchkey'"), "\(open.standardError)")
        let openJSON = try setup.bibread(["open", "--print", "--json", "--library", samples, "nosuchkey:3"])
        #expect(openJSON.status == 1, "\(openJSON.standardOutput)")
        let found = try setup.bibread(["open", "--print", "--library", samples, "knuth1984texbook:3"])
        #expect(found.status == 0, "\(found.standardError)")
    }

    /// A stand-in for NetworkManager's `nmcli` (NetworkManager cannot run here): it answers
    /// `device show` the way nmcli does, with the metered state given.
    private func nmcliStandIn(in setup: Setup, metered: String) throws -> String {
        let folder = setup.root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("nmcli")
        try "#!/bin/sh\nprintf 'GENERAL.METERED:\(metered)\\nGENERAL.METERED:no\\n'\n".write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        return folder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    @Test func onAMeteredConnectionOnlyTheBibSyncsWhenConfiguredSo() throws {
        let setup = try Setup(config: "sync_on_metered = false\n")
        let url = setup.server.baseURL.absoluteString
        let metered = try ProcessRunner.bibread(["sync", url, "--all-pdfs"],
                                               environment: setup.environment.merging(["PATH": try nmcliStandIn(in: setup, metered: "yes (guessed)")]) { $1 })
        #expect(metered.status == 0, "\(metered.standardError)")
        #expect(metered.standardError.contains("library.bib: updated"))
        #expect(metered.standardError.contains("PDFs were not downloaded: the connection is metered"))
        #expect(!(try setup.bibread(["cache", "status", "--json"])).standardOutput.contains("papers/"))

        let unmetered = try ProcessRunner.bibread(["sync", url, "--all-pdfs"],
                                                 environment: setup.environment.merging(["PATH": try nmcliStandIn(in: setup, metered: "no")]) { $1 })
        #expect(unmetered.status == 0)
        #expect(unmetered.standardError.contains("Done: 5 downloaded"))
    }

    /// Refusals say what is wrong in words, not with the names of values inside bibread
    /// ("NOT replaced: noEntries", "the download has -1 bytes") (issue 26, item 13).
    @Test func refusalsSayWhatIsWrongInPlainWords() throws {
        let setup = try Setup(config: Self.labRemote)
        #expect(try setup.bibread(["sync", "lab"]).status == 0)
        // A .bib with no entry at all (only a comment) is not put in place.
        try "% exported by a broken script\n".write(to: setup.server.root.appendingPathComponent("library.bib"), atomically: true, encoding: .utf8)
        let empty = try setup.bibread(["sync", "lab"])
        #expect(empty.status == 1)
        #expect(empty.standardError.contains("library.bib: NOT replaced: it has no BibTeX entries; the download is kept at"), "\(empty.standardError)")
        #expect(!empty.standardError.contains("noEntries"), "\(empty.standardError)")

        // A server that answers 304 to a plain GET sends no file.
        let remote = setup.root.appendingPathComponent("faulty")
        try FileManager.default.createDirectory(at: remote.appendingPathComponent("papers"), withIntermediateDirectories: true)
        try "@misc{one, title = {One}, file = {:papers/one.pdf:PDF}}\n".write(to: remote.appendingPathComponent("library.bib"), atomically: true, encoding: .utf8)
        try Data("%PDF-1.4\n%%EOF\n".utf8).write(to: remote.appendingPathComponent("papers/one.pdf"))
        let server = try FaultServer.start(root: remote)
        defer { server.stop() }
        try server.setFault(.status(304), for: "papers/one.pdf")
        let unsent = try setup.bibread(["sync", server.baseURL.absoluteString, "--name", "faulty", "--all-pdfs"])
        #expect(unsent.status == 1)
        #expect(unsent.standardError.contains("papers/one.pdf: the server answered HTTP 304 instead of sending the file"), "\(unsent.standardError)")
        #expect(!unsent.standardError.contains("-1"), "\(unsent.standardError)")

        // A folder that cannot be made is named, with the system's reason.
        let blocked = setup.root.appendingPathComponent("blocked")
        try Data().write(to: blocked)
        let unwritable = try ProcessRunner.bibread(["sync", "lab"], environment: setup.environment.merging(["XDG_DATA_HOME": blocked.path]) { $1 })
        #expect(unwritable.status == 1)
        #expect(unwritable.standardError == "bibread: sync of 'lab' failed: \(blocked.path)/bibread: Not a directory\n", "\(unwritable.standardError)")
    }

    @Test func badRemotesAndOptionsAreClearErrors() throws {
        let setup = try Setup()
        let unknown = try setup.bibread(["sync", "nosuchremote"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("'nosuchremote' is neither a configured remote"))
        let refused = try setup.bibread(["sync", "http://127.0.0.1:1/"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("sync of"))
        let purge = try setup.bibread(["cache", "purge"])
        #expect(purge.status == 64)
        let group = try setup.bibread(["sync", setup.server.baseURL.absoluteString, "--group", "No such group"])
        #expect(group.standardError.contains("no group named 'No such group'"))
    }
}
