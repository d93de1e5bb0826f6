import BibModel
import BibreadTestSupport
import Foundation
import SyncEngine
import Testing

/// Two machines (two sets of XDG folders) editing one library on a writable lighttpd WebDAV
/// remote: every edit reaches the remote, merged field by field; a field both changed keeps one
/// value in the file and the other as a conflict; nothing is lost.
@Suite("two machines editing one synced library")
struct TwoMachineSyncTests {
    final class Setup {
        let root: URL
        let remote: URL
        var server: WebDAVServer
        let machineA: [String: String]
        let machineB: [String: String]
        let original: String

        init() throws {
            root = try Fixtures.temporaryDirectory()
            remote = root.appendingPathComponent("remote")
            try Fixtures.copySampleLibrary(to: remote)
            original = try String(contentsOf: remote.appendingPathComponent("library.bib"), encoding: .utf8)
            server = try WebDAVServer.start(root: remote, writable: true)
            machineA = Fixtures.isolatedEnvironment(under: root.appendingPathComponent("a"))
            machineB = Fixtures.isolatedEnvironment(under: root.appendingPathComponent("b"))
            for machine in [machineA, machineB] { try configure(machine) }
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(at: root)
        }

        func configure(_ machine: [String: String]) throws {
            let folder = URL(fileURLWithPath: try #require(machine["XDG_CONFIG_HOME"])).appendingPathComponent("bibread")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try "[[remote]]\nname = \"lab\"\nurl = \"\(server.baseURL.absoluteString)\"\n"
                .write(to: folder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        }

        func run(_ machine: [String: String], _ arguments: [String]) throws -> ProcessResult {
            try ProcessRunner.bibread(arguments, environment: machine)
        }

        /// Runs bibread on `machine` and expects it to succeed.
        func succeed(_ machine: [String: String], _ arguments: String..., sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
            let result = try run(machine, arguments)
            #expect(result.status == 0, "bibread \(arguments.joined(separator: " ")): \(result.standardError)", sourceLocation: sourceLocation)
        }

        /// Syncs `machine` and expects it to succeed and to say `message`.
        func sync(_ machine: [String: String], saying message: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
            let result = try run(machine, ["sync", "lab"])
            #expect(result.status == 0, "\(result.standardError)", sourceLocation: sourceLocation)
            #expect(result.standardError.contains(message), "\(result.standardError)", sourceLocation: sourceLocation)
        }

        var remoteText: String { (try? String(contentsOf: remote.appendingPathComponent("library.bib"), encoding: .utf8)) ?? "" }

        func localText(_ machine: [String: String]) -> String {
            let locations = RemoteLocations(name: "lab", environment: machine)
            return (try? String(contentsOf: locations.library.appendingPathComponent("library.bib"), encoding: .utf8)) ?? ""
        }

        /// `text` without the reference `key` (from its `@` to its closing line) and the blank
        /// line before it, as an editor would remove it.
        static func removing(_ key: String, from text: String) -> String {
            let body = entry(key, in: text)
            return body.isEmpty ? text : text.replacingOccurrences(of: "\n\n" + body, with: "")
        }

        /// The text of one reference in `text`, from its `@` to its closing delimiter ("" when
        /// it has none).
        static func entry(_ key: String, in text: String) -> String {
            let library = Library.parse([(path: "library.bib", bytes: Array(text.utf8))])
            return library.entry(at: EntryAddress(key)).flatMap(LibraryEditor.text(of:)) ?? ""
        }
    }

    @Test func aRemotesNameMeansTheRemoteEvenBesideAFolderOfThatName() throws {
        let setup = try Setup()
        #expect(try setup.run(setup.machineA, ["sync", "lab"]).status == 0)
        // A folder named like the remote where the command runs (a user in ~/papers with lab/ in it).
        let folder = setup.root.appendingPathComponent("cwd")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("lab"), withIntermediateDirectories: true)
        let mark = try ProcessRunner.bibread(["mark", "lab", "turing1936computable", "read"], environment: setup.machineA, currentDirectory: folder)
        #expect(mark.status == 0, "\(mark.standardError)")
        #expect(mark.standardOutput.contains("turing1936computable"), "\(mark.standardOutput)")
        let list = try ProcessRunner.bibread(["list", "lab"], environment: setup.machineA, currentDirectory: folder)
        #expect(list.status == 0, "\(list.standardError)")
    }

    @Test func editsOfDifferentReferencesOnTwoMachinesAllReachTheRemote() throws {
        let setup = try Setup()
        for machine in [setup.machineA, setup.machineB] {
            let sync = try setup.run(machine, ["sync", "lab"])
            #expect(sync.status == 0, "\(sync.standardError)")
        }
        #expect(try setup.run(setup.machineA, ["mark", "lab", "turing1936computable", "read"]).status == 0)
        #expect(try setup.run(setup.machineB, ["tag", "lab", "knuth1984texbook", "+macros"]).status == 0)
        #expect(try setup.run(setup.machineB, ["rate", "lab", "shannon1948mathematical", "5"]).status == 0)

        let pushA = try setup.run(setup.machineA, ["sync", "lab"])
        #expect(pushA.status == 0, "\(pushA.standardError)")
        #expect(pushA.standardError.contains("library.bib: pushed 1 edit made here"), "\(pushA.standardError)")
        let pushB = try setup.run(setup.machineB, ["sync", "lab"])
        #expect(pushB.status == 0, "\(pushB.standardError)")
        #expect(pushB.standardError.contains("library.bib: pushed 2 edits made here, merged with the remote's changes"), "\(pushB.standardError)")
        #expect(try setup.run(setup.machineA, ["sync", "lab"]).status == 0)

        let remote = setup.remoteText
        #expect(Setup.entry("turing1936computable", in: remote).contains("read     = {1}"), "\(Setup.entry("turing1936computable", in: remote))")
        #expect(Setup.entry("knuth1984texbook", in: remote).contains("Keywords = {typesetting, TeX, macros}"))
        #expect(Setup.entry("shannon1948mathematical", in: remote).contains("= {5}"))
        // Everything else is byte for byte the original.
        for key in ["goedel1931formal", "dijkstra1959note", "lamport1994latex"] {
            #expect(Setup.entry(key, in: remote) == Setup.entry(key, in: setup.original), "\(key)")
        }
        #expect(remote.count - setup.original.count < 400)
        #expect(setup.localText(setup.machineA) == remote)
        #expect(setup.localText(setup.machineB) == remote)
        for machine in [setup.machineA, setup.machineB] {
            #expect(try setup.run(machine, ["conflicts"]).standardOutput == "No conflicts: every change made here is in its library.\n")
        }
    }

    @Test func aFieldBothMachinesChangedKeepsOneValueInTheFileAndTheOtherAsAConflict() throws {
        let setup = try Setup()
        for machine in [setup.machineA, setup.machineB] { #expect(try setup.run(machine, ["sync", "lab"]).status == 0) }
        #expect(try setup.run(setup.machineA, ["rate", "lab", "knuth1984texbook", "2"]).status == 0)
        // A second later, so that the two modification dates differ (they are no conflict).
        Thread.sleep(forTimeInterval: 1.1)
        #expect(try setup.run(setup.machineB, ["rate", "lab", "knuth1984texbook", "5"]).status == 0)
        #expect(try setup.run(setup.machineA, ["sync", "lab"]).status == 0)
        let pushB = try setup.run(setup.machineB, ["sync", "lab"])
        #expect(pushB.standardError.contains("1 conflict kept the remote's value (bibread conflicts)"), "\(pushB.standardError)")
        #expect(Setup.entry("knuth1984texbook", in: setup.remoteText).contains("Rating = {2}"))
        let conflicts = try setup.run(setup.machineB, ["conflicts"])
        #expect(conflicts.standardOutput == "lab: library.bib: knuth1984texbook rating: yours '5' · in the library '2'\n", "\(conflicts.standardOutput)")
        #expect(setup.localText(setup.machineB) == setup.remoteText)

        // B picks its own value: it is written here, pushed by the next sync, and no longer listed.
        let resolve = try setup.run(setup.machineB, ["conflicts", "resolve", "knuth1984texbook", "rating", "--mine"])
        #expect(resolve.status == 0, "\(resolve.standardError)")
        #expect(resolve.standardOutput == "lab: library.bib: knuth1984texbook rating: set to '5' (yours); the next sync pushes it\n")
        #expect(try setup.run(setup.machineB, ["conflicts"]).standardOutput == "No conflicts: every change made here is in its library.\n")
        #expect(try setup.run(setup.machineB, ["sync", "lab"]).status == 0)
        #expect(Setup.entry("knuth1984texbook", in: setup.remoteText).contains("Rating = {5}"))
        let unknown = try setup.run(setup.machineB, ["conflicts", "resolve", "knuth1984texbook", "rating", "--theirs"])
        #expect(unknown.status == 1)
        #expect(unknown.standardError == "bibread: no open conflict for knuth1984texbook rating; 'bibread conflicts' lists them\n")
    }

    @Test func anEditMadeOfflineWaitsAndIsMergedWhenTheRemoteIsBack() throws {
        let setup = try Setup()
        for machine in [setup.machineA, setup.machineB] { #expect(try setup.run(machine, ["sync", "lab"]).status == 0) }
        setup.server.stop()
        // Machine A marks a paper unread while the remote is gone; B, later, tags the same paper.
        #expect(try setup.run(setup.machineA, ["mark", "lab", "knuth1984texbook", "unread"]).status == 0)
        let offline = try setup.run(setup.machineA, ["sync", "lab"])
        #expect(offline.status != 0, "the remote is gone")
        #expect(Setup.entry("knuth1984texbook", in: setup.localText(setup.machineA)).contains("Read = {0}"), "the edit stays here")
        let journal = try EditJournal(url: RemoteLocations(name: "lab", environment: setup.machineA).journal)
        #expect(try journal.pendingEditCount(file: "library.bib") == 1)

        setup.server = try WebDAVServer.start(root: setup.remote, writable: true)
        try setup.configure(setup.machineA)
        try setup.configure(setup.machineB)
        #expect(try setup.run(setup.machineB, ["tag", "lab", "knuth1984texbook", "+macros"]).status == 0)
        #expect(try setup.run(setup.machineB, ["sync", "lab"]).status == 0)
        let back = try setup.run(setup.machineA, ["sync", "lab"])
        #expect(back.status == 0, "\(back.standardError)")
        #expect(back.standardError.contains("pushed 1 edit made here, merged with the remote's changes"), "\(back.standardError)")
        let remote = setup.remoteText
        let knuth = Setup.entry("knuth1984texbook", in: remote)
        #expect(knuth.contains("Read = {0}"), "\(knuth)")
        #expect(knuth.contains("Keywords = {typesetting, TeX, macros}"), "\(knuth)")
        #expect(try journal.pendingEditCount(file: "library.bib") == 0)
    }

    /// References added and removed on one machine reach the remote as whole entries, merged
    /// with the other machine's changes: an added one is put in after its neighbour, a removed
    /// one the other left alone is removed there too, and one the other changed meanwhile is
    /// kept (with that change) and reported.
    @Test func referencesAddedAndRemovedHereReachTheRemoteMergedWithChangesThere() throws {
        let setup = try Setup()
        for machine in [setup.machineA, setup.machineB] { try setup.succeed(machine, "sync", "lab") }
        try setup.succeed(setup.machineA, "mark", "lab", "turing1936computable", "read")
        // A: a reference added by hand after turing's, two removed (as an editor would write them).
        let local = RemoteLocations(name: "lab", environment: setup.machineA).library.appendingPathComponent("library.bib")
        var text = try String(contentsOf: local, encoding: .utf8)
        let added = "@misc{added2026,\n  title = {Added here by hand},\n}"
        text = text.replacingOccurrences(of: Setup.entry("turing1936computable", in: text),
                                         with: Setup.entry("turing1936computable", in: text) + "\n\n" + added)
        text = Setup.removing("dijkstra1959note", from: Setup.removing("goedel1931formal", from: text))
        try Data(text.utf8).write(to: local)
        // B, meanwhile: rates knuth and tags goedel, which A removed.
        try setup.succeed(setup.machineB, "rate", "lab", "knuth1984texbook", "1")
        try setup.succeed(setup.machineB, "tag", "lab", "goedel1931formal", "+sets")
        try setup.succeed(setup.machineB, "sync", "lab")

        try setup.sync(setup.machineA, saying: "merged with the remote's changes; 1 conflict kept the remote's value")
        let remote = setup.remoteText
        let keys = Library.parse([(path: "library.bib", bytes: Array(remote.utf8))]).entries.map(\.key)
        #expect(keys.firstIndex(of: "added2026").map { keys[($0 - 1)...($0 + 1)] } == ["turing1936computable", "added2026", "erdos1959random"],
                "the added reference follows its neighbour: \(keys)")
        #expect(remote.contains("}\n\n" + added + "\n\n@article{erdos1959random,"), "with the file's blank lines")
        #expect(Setup.entry("turing1936computable", in: remote).contains("read     = {1}"))
        #expect(Setup.entry("knuth1984texbook", in: remote).contains("Rating = {1}"))
        #expect(!remote.contains("dijkstra1959note"), "removed here, unchanged there: removed")
        #expect(Setup.entry("goedel1931formal", in: remote).contains("incompleteness, sets"), "removed here, changed there: kept")
        #expect(setup.localText(setup.machineA) == remote)
        let conflicts = try setup.run(setup.machineA, ["conflicts"])
        #expect(conflicts.standardOutput.contains("goedel1931formal"), "\(conflicts.standardOutput)")
        // B gets it all back; nothing else of the file moved.
        try setup.succeed(setup.machineB, "sync", "lab")
        #expect(setup.localText(setup.machineB) == remote)
        for key in ["lamport1994latex", "shannon1948mathematical", "erdos1959random"] {
            #expect(Setup.entry(key, in: remote) == Setup.entry(key, in: setup.original), "\(key)")
        }
    }

    /// Both machines added a reference with the same key and different contents: what agrees
    /// is there once, a field both wrote differently keeps the remote's value and is listed.
    @Test func theSameKeyAddedOnBothMachinesConflictsFieldByField() throws {
        let setup = try Setup()
        for machine in [setup.machineA, setup.machineB] { try setup.succeed(machine, "sync", "lab") }
        func add(_ entry: String, on machine: [String: String]) throws {
            let local = RemoteLocations(name: "lab", environment: machine).library.appendingPathComponent("library.bib")
            let text = try String(contentsOf: local, encoding: .utf8)
            let last = Setup.entry("tarjan1975efficiency", in: text)
            try Data(text.replacingOccurrences(of: last, with: last + "\n\n" + entry).utf8).write(to: local)
        }
        try add("@book{twin2026,\n  title = {Twin},\n  year = {2026},\n  note = {A only},\n}", on: setup.machineA)
        try setup.succeed(setup.machineA, "mark", "lab", "turing1936computable", "read")
        try add("@book{twin2026,\n  title = {Twin, second edition},\n  year = {2026},\n}", on: setup.machineB)
        try setup.succeed(setup.machineB, "rate", "lab", "knuth1984texbook", "1")
        try setup.succeed(setup.machineB, "sync", "lab")
        #expect(setup.remoteText.components(separatedBy: "{twin2026,").count == 2, "B's reference is on the remote")

        let sync = try setup.run(setup.machineA, ["sync", "lab"])
        #expect(sync.status == 0, "\(sync.standardError)")
        let remote = setup.remoteText
        #expect(remote.components(separatedBy: "{twin2026,").count == 2, "one reference twin2026")
        let twin = Setup.entry("twin2026", in: remote)
        #expect(twin.contains("title = {Twin, second edition}"), "\(twin)")
        #expect(twin.contains("A only"), "a field only A wrote is added: \(twin)")
        let conflicts = try setup.run(setup.machineA, ["conflicts"])
        #expect(conflicts.standardOutput == "lab: library.bib: twin2026 title: yours 'Twin' · in the library 'Twin, second edition'\n",
                "\(conflicts.standardOutput)")
        #expect(Setup.entry("turing1936computable", in: remote).contains("read     = {1}"))
        #expect(Setup.entry("knuth1984texbook", in: remote).contains("Rating = {1}"))
    }

    /// The synced copy edited by another program (an editor, JabRef), with nothing in the
    /// journal: the sync notices that it differs from the last synced copy and pushes the
    /// change (merged when the remote changed meanwhile); it never puts the remote's file over it.
    @Test func aCopyEditedByAnotherProgramIsPushedNeverReplaced() throws {
        let setup = try Setup()
        for machine in [setup.machineA, setup.machineB] { try setup.succeed(machine, "sync", "lab") }
        let local = RemoteLocations(name: "lab", environment: setup.machineA).library.appendingPathComponent("library.bib")
        func edit(_ old: String, _ new: String) throws {
            let text = try String(contentsOf: local, encoding: .utf8)
            #expect(text.contains(old))
            try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: local)
        }
        // The remote unchanged: the sync uploads the copy here.
        try edit("Edition = {Second}", "Edition = {Third}")
        try setup.sync(setup.machineA, saying: "library.bib: pushed the changes made to the copy here outside bibread")
        #expect(Setup.entry("lamport1994latex", in: setup.remoteText).contains("Edition = {Third}"))
        #expect(setup.localText(setup.machineA) == setup.remoteText)

        // The remote changed meanwhile (B rates knuth): merged, both kept.
        try edit("Language = {german}", "Language = {German}")
        try setup.succeed(setup.machineB, "rate", "lab", "knuth1984texbook", "1")
        try setup.succeed(setup.machineB, "sync", "lab")
        try setup.sync(setup.machineA, saying: "merged with the remote's changes")
        let remote = setup.remoteText
        #expect(Setup.entry("goedel1931formal", in: remote).contains("Language = {German}"), "the change made here is on the remote")
        #expect(Setup.entry("knuth1984texbook", in: remote).contains("Rating = {1}"), "and the remote's change is kept")
        #expect(Setup.entry("lamport1994latex", in: remote).contains("Edition = {Third}"))
        #expect(setup.localText(setup.machineA) == remote)
        try setup.succeed(setup.machineB, "sync", "lab")
        #expect(setup.localText(setup.machineB) == remote)
    }

    /// A field removed here and changed on the other machine: resolving it with --mine says
    /// that the field is removed (it was "set to ''") and removes it, and the sync pushes that.
    @Test func resolvingARemovedFieldWithMineRemovesIt() throws {
        let setup = try Setup()
        for machine in [setup.machineA, setup.machineB] { try setup.succeed(machine, "sync", "lab") }
        try setup.succeed(setup.machineA, "set", "lab", "knuth1984texbook", "--unset", "keywords")
        try setup.succeed(setup.machineB, "tag", "lab", "knuth1984texbook", "+macros")
        try setup.succeed(setup.machineB, "sync", "lab")
        try setup.sync(setup.machineA, saying: "1 conflict kept the remote's value")
        let conflicts = try setup.run(setup.machineA, ["conflicts"])
        #expect(conflicts.standardOutput == "lab: library.bib: knuth1984texbook keywords: yours none · in the library 'typesetting, TeX, macros'\n",
                "\(conflicts.standardOutput)")
        let resolve = try setup.run(setup.machineA, ["conflicts", "resolve", "knuth1984texbook", "keywords", "--mine"])
        #expect(resolve.status == 0, "\(resolve.standardError)")
        #expect(resolve.standardOutput == "lab: library.bib: knuth1984texbook keywords: removed (yours); the next sync pushes it\n",
                "\(resolve.standardOutput)")
        #expect(!Setup.entry("knuth1984texbook", in: setup.localText(setup.machineA)).contains("Keywords"))
        try setup.succeed(setup.machineA, "sync", "lab")
        let knuth = Setup.entry("knuth1984texbook", in: setup.remoteText)
        #expect(!knuth.contains("Keywords") && knuth.contains("Title"), "\(knuth)")
    }

    /// What a push of one edit asks of lighttpd, counted in its access log once it has stopped
    /// (it writes the log as requests end): when the remote is still the version the copy here
    /// came from, one PUT with If-Match and no GET (the sync's one PROPFIND lists the folder,
    /// and the file the push made is not downloaded again); when it changed, that PUT is refused
    /// (412), one GET fetches the remote's version, and one PUT puts the merge.
    @Test func aPushOfOneEditIsOneConditionalPut() throws {
        let setup = try Setup()
        for machine in [setup.machineA, setup.machineB] { try setup.succeed(machine, "sync", "lab") }
        func requests(of machine: [String: String]) throws -> [String] {
            setup.server.stop()
            setup.server = try WebDAVServer.start(root: setup.remote, writable: true)
            for each in [setup.machineA, setup.machineB] { try setup.configure(each) }
            try setup.succeed(machine, "sync", "lab")
            setup.server.stop()
            // The reading state costs one listing of its folder (no machine has shared any here).
            let state = setup.server.requests.filter { $0.contains("/.bibread/") }
            #expect(state == ["PROPFIND /.bibread/state/ 404"], "\(state)")
            return setup.server.requests.filter { !$0.contains("/.bibread/") }
        }
        try setup.succeed(setup.machineA, "mark", "lab", "turing1936computable", "read")
        #expect(try requests(of: setup.machineA) == ["PUT /library.bib 204", "PROPFIND / 207"])
        #expect(Setup.entry("turing1936computable", in: setup.remoteText).contains("read     = {1}"))
        // A sync with nothing to push does not PUT; B's copy is behind: it GETs the file.
        #expect(try requests(of: setup.machineB) == ["PROPFIND / 207", "GET /library.bib 200"])

        try setup.succeed(setup.machineA, "rate", "lab", "knuth1984texbook", "2")
        _ = try requests(of: setup.machineA)
        try setup.succeed(setup.machineB, "tag", "lab", "shannon1948mathematical", "+bits")
        #expect(try requests(of: setup.machineB) == ["PUT /library.bib 412", "GET /library.bib 200", "PUT /library.bib 204", "PROPFIND / 207"])
        let remote = setup.remoteText
        #expect(Setup.entry("knuth1984texbook", in: remote).contains("Rating = {2}") && Setup.entry("shannon1948mathematical", in: remote).contains("bits"))
        #expect(setup.localText(setup.machineB) == remote)
    }
}
