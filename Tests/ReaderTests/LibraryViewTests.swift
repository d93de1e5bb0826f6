import BibModel
import BibreadServices
import BibreadTestSupport
import Foundation
import PDFText
import SyncEngine
import Testing
@testable import Reader
@testable import ReaderCore

/// The library view as a user sees it: the list's marks and columns, the details pane's links,
/// the help overlay, search while a phrase is typed, PDFs only the remote has, several files.
@Suite("library view")
struct LibraryViewTests {
    // MARK: - The list

    @Test func theBookmarkMarkIsNotGluedToTheAuthor() throws {
        var harness = ReaderHarness.samples(width: 120, height: 40)
        harness.state.bookmarkedKeys = ["knuth1984texbook"]
        let row = try #require(harness.screen.split(separator: "\n").first { $0.contains("The TeXbook") })
        #expect(row.contains("★ Knuth"), "\(row)")
        #expect(!row.contains("★Knuth"), "\(row)")
    }

    @Test func theTitleTakesTheSpareWidthOfAWideList() throws {
        let harness = ReaderHarness.samples(width: 200, height: 50)
        // 64 columns of an 81-column title: at 200 columns the title had 41.
        #expect(harness.screen.contains("Contraction Hierarchies: Faster and Simpler Hierarchical Routing"), "\(harness.screen)")
    }

    // MARK: - Search

    @Test func aPhraseFiltersWhileItsQuoteIsStillOpen() throws {
        var harness = ReaderHarness.samples()
        harness.press("/")
        harness.type("\"paragraphs into")
        let keys = harness.state.visible.map { harness.state.library!.entries[$0].key }
        #expect(keys == ["knuth1981breaking"], "the phrase typed so far filters, not everything: \(keys.count) shown")
        harness.type("\"")
        #expect(harness.state.visible.map { harness.state.library!.entries[$0].key } == ["knuth1981breaking"])
        #expect(harness.state.searchError == nil)
    }

    @Test func anEmptyOpenQuoteKeepsTheLastGoodFilter() throws {
        var harness = ReaderHarness.samples()
        harness.press("/")
        harness.type("knuth \"")
        #expect(harness.state.visible.count == 3)
        #expect(harness.state.searchError != nil)
    }

    // MARK: - Help

    @Test(arguments: [(200, 50), (80, 24)])
    func helpWrapsDescriptionsAndScrollsToTheEnd(width: Int, height: Int) throws {
        var harness = ReaderHarness.samples(width: width, height: height)
        harness.press("?")
        var screens: [String] = []
        for _ in 0..<200 {
            screens.append(harness.screen)
            harness.press("j")
        }
        #expect(screens.last?.contains("Keys can be changed") == true, "scrolling reaches the end")
        // Scrolling stops at the end: one k past it goes back up at once.
        harness.press("k")
        #expect(harness.screen != screens.last, "k after scrolling past the end moves up")
        // Every description is shown whole: on one row at 200 columns; wrapped, never cut, at 80.
        let rows = screens.flatMap { $0.split(separator: "\n").map(String.init) }
        let words = Set(rows.flatMap { $0.split(separator: " ").map(String.init) })
        for definition in ActionTable.definitions {
            if width >= 200 {
                #expect(rows.contains { $0.contains(definition.help) }, "cut: \(definition.help)")
            } else {
                for word in definition.help.split(separator: " ") {
                    #expect(words.contains(String(word)), "\(word) of \(definition.help)")
                }
            }
        }
    }

    // MARK: - Details

    /// A real entry whose `url` is a dx.doi.org link and whose `doi` is the same DOI.
    private func softwareEngineeringEntry() throws -> Entry {
        let library = Fixtures.library(at: Fixtures.corpus("bib/plume/soft-eng.bib"))
        return try #require(library.entry(addressedBy: "Kitchenham:2010:SLR:1808352.1808650"))
    }

    @Test func aDOIIsListedOnceAmongTheLinks() throws {
        let entry = try softwareEngineeringEntry()
        let lines = DetailsPane.content(of: entry, width: 80, locations: [:]).map(\.text)
        let links = lines.drop { $0 != "Links" }.prefix { !$0.isEmpty }.filter { $0.contains("doi.org") }
        #expect(links == [" https://doi.org/10.1016/j.infsof.2010.03.006"], "\(links)")
    }

    @Test(arguments: [34, 40, 60])
    func linksAndDOIsAreNeverBrokenWhenTheyFitTheLine(width: Int) throws {
        let entry = try softwareEngineeringEntry()
        let lines = DetailsPane.content(of: entry, width: width, locations: [:]).map(\.text)
        let doi = "10.1016/j.infsof.2010.03.006"
        // The DOI field: the DOI whole on one line.
        #expect(lines.contains { $0.contains(doi) && !$0.contains("https:") }, "\(lines)")
        // No line holds a piece of the DOI without the rest, except a link longer than the line.
        for line in lines where line.contains("j.infsof") || line.contains("2010.03.006") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.contains(doi) { continue }
            #expect(DisplayWidth.of("https://doi.org/" + doi) > width - 1, "cut though it fits: \(line)")
        }
        // A link longer than the line is cut after a / or a . (and joins back to the link).
        let link = "https://doi.org/" + doi
        if DisplayWidth.of(link) > width - 1 {
            guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("https://doi.org") }) else {
                Issue.record("no doi.org link in \(lines)")
                return
            }
            var joined = ""
            var index = start
            while joined.count < link.count, index < lines.count {
                let piece = lines[index].trimmingCharacters(in: .whitespaces)
                if joined.count + piece.count < link.count { #expect("/.".contains(piece.last ?? " "), "cut mid-word: \(piece)") }
                joined += piece
                index += 1
            }
            #expect(joined == link)
        }
    }

    @Test func aShortURLFieldGoesOnItsOwnLineInsteadOfBeingCut() throws {
        let library = Fixtures.library("""
            @misc{web2020page, title = {A Page}, url = {https://example.org/a/rather/long/path}, note = {See the page}}
            """)
        let entry = try #require(library.entries.first)
        let lines = DetailsPane.content(of: entry, width: 45, locations: [:]).map(\.text)
        let url = "https://example.org/a/rather/long/path"
        let fieldLines = lines.drop { !$0.contains("Fields") }
        #expect(fieldLines.contains { $0.contains(url) }, "\(lines)")
        #expect(!fieldLines.contains { $0.contains("https://example.org/a/ra") && !$0.contains(url) }, "\(lines)")
    }

    // MARK: - PDFs only the remote has

    /// A synced library: its folder is an alias of a cache that holds one of its two PDFs; a
    /// third reference links a PDF outside the remote that is nowhere.
    private func syncedLibrary() throws -> (library: Library, root: URL) {
        let root = try Fixtures.temporaryDirectory()
        let folder = root.appendingPathComponent("remotes/lab")
        let cache = root.appendingPathComponent("cache/lab")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: cache.appendingPathComponent("papers"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent("papers/incompleteness.pdf"),
                                         to: cache.appendingPathComponent("papers/here.pdf"))
        let bib = folder.appendingPathComponent("library.bib")
        try """
            @article{here2020, author = {Here, Anna}, title = {Cached Here}, year = 2020, file = {:papers/here.pdf:PDF}}
            @article{away2021, author = {Away, Bob}, title = {Only On The Remote}, year = 2021, file = {:papers/away.pdf:PDF}}
            @article{nowhere2022, author = {Nowhere, Cy}, title = {Nowhere At All}, year = 2022, file = {:/nonexistent/bibread/nowhere.pdf:PDF}}
            @article{nofile2023, author = {Bare, Di}, title = {No File}, year = 2023}
            """.write(to: bib, atomically: true, encoding: .utf8)
        LinkedFileLocator.shared.register(folder: folder.path, as: cache.path)
        return (Fixtures.library(at: bib), root)
    }

    @Test func aPDFOnlyTheRemoteHasHasItsOwnMarkAndGroup() throws {
        let (library, root) = try syncedLibrary()
        defer { try? FileManager.default.removeItem(at: root) }
        var harness = ReaderHarness(library: library, width: 120, height: 30)
        let groups = Dictionary(uniqueKeysWithValues: harness.state.groupRows.compactMap(\.id).map { ($0.path, harness.state.groupCounts[$0]) })
        #expect(groups["With PDF"] == 1)
        #expect(groups["On the remote only"] == 1, "\(groups)")
        #expect(groups["Without PDF"] == 2, "no PDF anywhere: nowhere2022 and nofile2023")
        let row = try #require(harness.screen.split(separator: "\n").first { $0.contains("Away ") && $0.contains("2021") })
        #expect(row.contains("○"), "\(row)")
        let here = try #require(harness.screen.split(separator: "\n").first { $0.contains("Here ") && $0.contains("2020") })
        #expect(here.contains("●") && !here.contains("○"))
        harness.press("h")
        while harness.state.selectedGroupRow?.id != .builtIn(.remoteOnly), harness.state.groupCursor.selected < harness.state.groupRows.count - 1 {
            harness.press("j")
        }
        harness.press("Enter")
        #expect(harness.state.visible.map { library.entries[$0].key } == ["away2021"])
    }

    @Test func aLibraryThatIsNotSyncedHasNoRemoteGroup() {
        let harness = ReaderHarness.samples()
        #expect(!harness.state.groupRows.contains { $0.id == .builtIn(.remoteOnly) })
    }

    // MARK: - Several files

    private func twoFiles() throws -> (library: Library, paths: [String], root: URL) {
        let root = try Fixtures.temporaryDirectory()
        let other = root.appendingPathComponent("other.bib")
        try """
            @book{other2020book, author = {Other, Ann}, title = {Another Book}, year = 2020, groups = {Reading list, To read}}

            @Comment{jabref-meta: grouping:
            0 AllEntriesGroup:;
            1 StaticGroup:Reading list\\;0\\;1\\;0x8a8a8aff\\;\\;\\;;
            1 StaticGroup:To read\\;0\\;1\\;0x8a8a8aff\\;\\;\\;;
            }
            """.write(to: other, atomically: true, encoding: .utf8)
        let paths = [Fixtures.samples.appendingPathComponent("library.bib").path, other.path]
        return (LibraryLoader.load(paths: paths).library, paths, root)
    }

    /// The Groups pane's rows, trimmed (in the three-pane layout).
    private func groupsColumn(_ screen: String) -> [String] {
        screen.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().map { row in
            String(row.prefix { $0 != "│" }).trimmingCharacters(in: .whitespaces)
        }
    }

    @Test func withSeveralFilesEachFilesGroupsComeUnderItsName() throws {
        let (library, paths, root) = try twoFiles()
        defer { try? FileManager.default.removeItem(at: root) }
        let harness = ReaderHarness(library: library, paths: paths, width: 120, height: 40)
        let rows = groupsColumn(harness.screen)
        let library1 = try #require(rows.firstIndex { $0 == "library.bib" }, "\(rows)")
        let other = try #require(rows.firstIndex { $0 == "other.bib" }, "\(rows)")
        let toRead = try #require(rows.firstIndex { $0.hasPrefix("To read ") })
        let classics = try #require(rows.firstIndex { $0.hasPrefix("Classics ") })
        let readingList = try #require(rows.firstIndex { $0.hasPrefix("Reading list ") })
        #expect(library1 < toRead && toRead < other && library1 < classics && classics < other && other < readingList, "\(rows)")
        // One file: no headings.
        #expect(!groupsColumn(ReaderHarness.samples().screen).contains("library.bib"))
    }

    @Test func aHeadingIsNotAGroup() throws {
        let (library, paths, root) = try twoFiles()
        defer { try? FileManager.default.removeItem(at: root) }
        var harness = ReaderHarness(library: library, paths: paths, width: 120, height: 40)
        harness.press("h")
        for _ in 0..<40 where harness.state.selectedGroupRow?.name != "other.bib" { harness.press("j") }
        harness.press("Enter")
        #expect(harness.state.activeGroup == .all)
        #expect(harness.state.visible.count == 26)
    }

    @Test func groupsOfTheSameNameInTwoFilesAreTwoGroups() throws {
        let (library, paths, root) = try twoFiles()
        defer { try? FileManager.default.removeItem(at: root) }
        var harness = ReaderHarness(library: library, paths: paths, width: 120, height: 40)
        func members(of group: GroupID) -> [String] {
            _ = harness.state.activateGroup(group)
            harness.run(harness.state.activateGroup(group))
            return harness.state.visible.map { library.entries[$0].key }.sorted()
        }
        let toReadRows = harness.state.groupRows.filter { $0.id?.path.hasPrefix("To read") == true }
        #expect(toReadRows.count == 2, "\(toReadRows.map(\.id))")
        #expect(Set(toReadRows.compactMap(\.id)).count == 2, "each has a path of its own")
        #expect(members(of: GroupID(path: "To read")) == ["geisberger2008contraction", "heyl2023understanding", "muller2015fundamentals", "turing1936computable"])
        let other = try #require(toReadRows.last?.id)
        #expect(members(of: other) == ["other2020book"])
        #expect(harness.state.groupCounts[other] == 1)
    }

    // MARK: - Reading history

    private static func fingerprint(_ path: String) -> String? { try? PDFFingerprint.of(path: path) }

    @Test func aPaperReadIsRecentlyReadWhateverSetOfFilesIsOpen() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ReadingStore(directory: folder)
        var alone = ReaderHarness.samples(store: store)
        alone.read("goedel1931formal")
        let (both, _, root) = try twoFiles()
        defer { try? FileManager.default.removeItem(at: root) }
        let times = try store.lastRead(of: both, localPath: LinkedFileLocator.shared.localPath(of:), fingerprint: LibraryViewTests.fingerprint)
        #expect(Array(times.keys) == ["goedel1931formal"])
        // And alone again.
        #expect(try store.lastRead(of: alone.state.library!, localPath: LinkedFileLocator.shared.localPath(of:), fingerprint: LibraryViewTests.fingerprint).keys.contains("goedel1931formal"))
    }

    @Test func aMovedCopyOfAPaperReadIsFoundByItsContent() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ReadingStore(directory: folder)
        let original = Fixtures.samples.appendingPathComponent("papers/incompleteness.pdf").path
        try store.recordReading(fingerprint: try PDFFingerprint.of(path: original), path: "/old/place/incompleteness.pdf",
                                key: "goedel1931formal", at: 1000)
        let times = try store.lastRead(of: ReaderHarness.samples().state.library!, localPath: LinkedFileLocator.shared.localPath(of:), fingerprint: LibraryViewTests.fingerprint)
        #expect(times == ["goedel1931formal": 1000])
    }

    @Test func historyKeptPerSetOfFilesStaysVisible() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ReadingStore(directory: folder)
        let samples = Fixtures.samples.appendingPathComponent("library.bib").path
        // Rows as bibread wrote them before: the set of files opened together, then the address.
        let sql = "INSERT INTO reading (library, key, last_read) VALUES ('\(samples)' || char(10) || '/elsewhere/other.bib', 'knuth1984texbook', 1000), ('/elsewhere/third.bib', 'cook1971complexity', 2000);"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [folder.appendingPathComponent("state.sqlite").path, sql]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let times = try store.lastRead(of: ReaderHarness.samples().state.library!, localPath: LinkedFileLocator.shared.localPath(of:), fingerprint: LibraryViewTests.fingerprint)
        #expect(times == ["knuth1984texbook": 1000])
    }
}
