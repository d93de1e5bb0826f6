import BibreadServices
import BibreadTestSupport
import Foundation
import ReadingList
import ReadingStateSync
import SyncEngine
import Testing

/// The exchange of reading-state logs through a real WebDAV server (lighttpd on 127.0.0.1):
/// what it costs when nothing is new, and compaction (issue 29).
@Suite("reading state exchange over WebDAV")
struct ReadingStateExchangeTests {
    /// A machine: a store in a folder of its own.
    final class Machine {
        let folder: URL
        let store: ReadingStore
        let name: String
        init(_ name: String) throws {
            self.name = name
            folder = try Fixtures.temporaryDirectory()
            store = try ReadingStore(directory: folder)
        }
        deinit { try? FileManager.default.removeItem(at: folder) }

        /// One exchange with the server at `url` (compacting past `files` files of its own).
        @discardableResult
        func exchange(_ url: URL, remote: String = "lab", compactingAfter files: Int = 16) throws -> StateExchangeOutcome {
            let session = try CurlSession()
            let transport = try #require(try TransportFactory.make(try Remote(url: url.absoluteString), session: session) as? any UploadingTransport)
            var exchange = ReadingStateExchange(store: store, transport: transport, remoteName: remote, deviceName: name)
            exchange.compactionFileCount = files
            return try exchange.run()
        }
    }

    @Test func aSyncWithNothingNewIsOneListingOfTheStateFolderAndNoDownload() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let laptop = try Machine("laptop")
        let desktop = try Machine("desktop")
        try laptop.store.addBookmark(named: "one", reference: PageReference(citeKey: "a2000", page: 1))
        let first = try WebDAVServer.start(root: root, writable: true)
        #expect(try laptop.exchange(first.baseURL).uploadedOperations > 0)
        try desktop.store.addBookmark(named: "two", reference: PageReference(citeKey: "b2001", page: 2))
        #expect(try desktop.exchange(first.baseURL).newOperations > 0)
        #expect(try laptop.exchange(first.baseURL).newOperations > 0, "the laptop reads the desktop's bookmark and name")
        first.stop()

        // Nothing new on either: each costs one listing (lighttpd's log is read after it stops).
        let second = try WebDAVServer.start(root: root, writable: true)
        let quiet = [try laptop.exchange(second.baseURL), try desktop.exchange(second.baseURL)]
        second.stop()
        #expect(quiet.allSatisfy { $0 == StateExchangeOutcome() }, "\(quiet)")
        #expect(second.requests == ["PROPFIND /.bibread/state/ 207", "PROPFIND /.bibread/state/ 207"], "\(second.requests)")
    }

    @Test func aMachineThatHasReadNothingWritesNothing() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try WebDAVServer.start(root: root, writable: true)
        let quiet = try Machine("quiet")
        #expect(try quiet.exchange(server.baseURL) == StateExchangeOutcome())
        server.stop()
        #expect(server.requests == ["PROPFIND /.bibread/state/ 404"], "\(server.requests)")
    }

    @Test func eachRemoteGetsEveryChangeOfThisMachine() throws {
        let roots = [try Fixtures.temporaryDirectory(), try Fixtures.temporaryDirectory()]
        defer { for root in roots { try? FileManager.default.removeItem(at: root) } }
        let servers = try roots.map { try WebDAVServer.start(root: $0, writable: true) }
        defer { for server in servers { server.stop() } }
        let laptop = try Machine("laptop")
        try laptop.store.addBookmark(named: "before", reference: PageReference(citeKey: "a2000", page: 1))
        try laptop.exchange(servers[0].baseURL, remote: "lab")
        try laptop.store.addBookmark(named: "after", reference: PageReference(citeKey: "b2001", page: 2))
        try laptop.exchange(servers[0].baseURL, remote: "lab")
        // The second remote, synced for the first time now, gets both.
        try laptop.exchange(servers[1].baseURL, remote: "home")
        for server in servers {
            let reader = try Machine("reader")
            try reader.exchange(server.baseURL)
            #expect(Set(try reader.store.savedBookmarks().nodes.map(\.name)) == ["before", "after"], "\(server.baseURL)")
        }
    }

    @Test func compactionKeepsEachMachinesFilesBoundedAndDropsNothing() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try WebDAVServer.start(root: root, writable: true)
        defer { server.stop() }
        let laptop = try Machine("laptop")
        let desktop = try Machine("desktop")
        try desktop.store.addFolder(named: "desktop's")
        try desktop.exchange(server.baseURL)
        let folder = root.appendingPathComponent(".bibread/state")
        let desktopFiles = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasPrefix(desktop.store.machineID?.rawValue ?? "?")
        }
        var most = 0
        var compactions = 0
        for index in 1...20 {
            try laptop.store.addBookmark(named: "bookmark \(index)", reference: PageReference(citeKey: "k\(index)", page: index))
            compactions += try laptop.exchange(server.baseURL, compactingAfter: 4).compacted > 0 ? 1 : 0
            let laptopFiles = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                $0.hasPrefix(laptop.store.machineID?.rawValue ?? "?")
            }
            most = max(most, laptopFiles.count)
        }
        #expect(most <= 4, "the laptop kept \(most) files")
        #expect(compactions >= 4)
        // The desktop's files are the desktop's to compact: still there as they were.
        let after = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(Set(desktopFiles).isSubset(of: Set(after)))
        // A machine that joins now gets every bookmark.
        let joining = try Machine("new")
        try joining.exchange(server.baseURL)
        let names = try joining.store.savedBookmarks().nodes.map(\.name)
        #expect(names.filter { $0.hasPrefix("bookmark ") }.count == 20, "\(names)")
        #expect(names.contains("desktop's"))
    }
}
