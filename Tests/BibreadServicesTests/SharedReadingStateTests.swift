import BibreadServices
import BibreadTestSupport
import BibreadValues
import Foundation
import ReadingList
import ReadingStateSync
import Testing

/// The reading store as one replica of the shared reading state: every change made here is an
/// operation of this machine, and merging another machine's operations is one transaction that
/// leaves the tables the reader reads as the merged state says (issue 29). Two stores in two
/// folders are two machines; their operations go from one to the other as a sync would carry
/// their logs (the sync over a real server is tested in the end-to-end suite).
@Suite("shared reading state in the store")
struct SharedReadingStateTests {
    /// A machine: a store in a folder of its own, with a clock that may be wrong by `skew` ms.
    final class Machine {
        let folder: URL
        let store: ReadingStore
        let name: String
        init(_ name: String, skew: Int64 = 0, folder: URL? = nil) throws {
            self.name = name
            if let folder { self.folder = folder } else { self.folder = try Fixtures.temporaryDirectory() }
            store = try ReadingStore(directory: self.folder, wallClock: { Int64(Date().timeIntervalSince1970 * 1000) + skew })
            try store.publishDeviceName(name)
        }
        deinit { try? FileManager.default.removeItem(at: folder) }

        /// Merges every operation `other` made (its whole log, as a sync would read it).
        @discardableResult
        func pull(from other: Machine) throws -> StateMergeOutcome {
            let log = try other.store.ownOperations()
            let file = StateLogFile(path: ".bibread/state/\(other.name)-\(log.count).jsonl", version: "v\(log.count)", operations: log)
            return try store.merge([file], remote: "test")
        }
    }

    /// The tree without row ids (which differ between machines), one line per node.
    static func shape(_ store: ReadingStore) throws -> [String] {
        func lines(_ nodes: [SavedNode], depth: Int) -> [String] {
            nodes.flatMap { node in
                let detail = node.reference.map { " → \($0.citeKey) p. \($0.page)" } ?? node.text.map { " “\($0)”" } ?? ""
                return [String(repeating: "  ", count: depth) + "\(node.kind.rawValue) \(node.name)\(detail)"]
                    + lines(node.children, depth: depth + 1)
            }
        }
        return lines(try store.savedBookmarks().nodes, depth: 0)
    }

    static func reference(_ key: String, _ page: Int) -> PageReference { PageReference(citeKey: key, page: page) }

    /// The reader and a sync starting at once on a new machine both create state.sqlite (and
    /// the machine id): each must open it, not fail with "table … already exists".
    @Test func aStoreOpenedAtOnceForTheFirstTimeOpensEverywhere() throws {
        let failures = try ConcurrentOpening.failures { folder in _ = try ReadingStore(directory: folder) }
        #expect(failures.isEmpty, "\(failures.count) openings failed: \(Set(failures))")
    }

    @Test func bookmarksAddedOfflineOnBothAreAllKeptInEitherOrder() throws {
        let laptop = try Machine("laptop")
        let desktop = try Machine("desktop")
        let course = try laptop.store.addFolder(named: "Course")
        try laptop.store.addBookmark(named: "Knuth", reference: Self.reference("knuth1984", 12), in: course)
        try desktop.pull(from: laptop)
        // Offline on both.
        let desktopCourse = try #require(try desktop.store.savedBookmarks().folder(atPath: "Course")?.id)
        try desktop.store.addBookmark(named: "Lamport", reference: Self.reference("lamport1994", 3), in: desktopCourse)
        try laptop.store.addBookmark(named: "Dijkstra", reference: Self.reference("dijkstra1968", 1), in: course)
        try laptop.store.addNotemark(named: "Idea", text: "read chapter 3 again")
        try desktop.pull(from: laptop)
        try laptop.pull(from: desktop)
        let onLaptop = try Self.shape(laptop.store)
        #expect(onLaptop == (try Self.shape(desktop.store)))
        #expect(onLaptop.contains("  bookmark Lamport → lamport1994 p. 3") && onLaptop.contains("  bookmark Dijkstra → dijkstra1968 p. 1")
                && onLaptop.contains("  bookmark Knuth → knuth1984 p. 12") && onLaptop.contains("notemark Idea “read chapter 3 again”"),
                "\(onLaptop)")
        // Merging again changes nothing.
        #expect(try laptop.pull(from: desktop).newOperations == 0)
        #expect(try Self.shape(laptop.store) == onLaptop)
    }

    @Test func aFolderRenamedOnOneAndFilledOnTheOtherIsRenamedAndFilled() throws {
        let laptop = try Machine("laptop")
        let desktop = try Machine("desktop")
        try laptop.store.addFolder(named: "To read")
        try desktop.pull(from: laptop)
        let onLaptop = try #require(try laptop.store.savedBookmarks().folder(atPath: "To read")?.id)
        let onDesktop = try #require(try desktop.store.savedBookmarks().folder(atPath: "To read")?.id)
        try laptop.store.rename(node: onLaptop, to: "Reading now")
        try desktop.store.addBookmark(named: "Paper", reference: Self.reference("smith2020", 4), in: onDesktop)
        try laptop.pull(from: desktop)
        try desktop.pull(from: laptop)
        let expected = ["folder Reading now", "  bookmark Paper → smith2020 p. 4"]
        #expect(try Self.shape(laptop.store) == expected)
        #expect(try Self.shape(desktop.store) == expected)
    }

    @Test func aNoteEditedOnBothKeepsBothTextsUntilItIsEditedAgain() throws {
        let laptop = try Machine("laptop")
        let desktop = try Machine("desktop")
        try laptop.store.setNote(citeKey: "Knuth1984", page: 7, text: "first thoughts")
        try desktop.pull(from: laptop)
        try laptop.store.setNote(citeKey: "knuth1984", page: 7, text: "laptop's version")
        try desktop.store.setNote(citeKey: "knuth1984", page: 7, text: "desktop's version")
        let outcome = try laptop.pull(from: desktop)
        try desktop.pull(from: laptop)
        let merged = try #require(try laptop.store.note(citeKey: "knuth1984", page: 7))
        #expect(merged == (try desktop.store.note(citeKey: "knuth1984", page: 7)))
        #expect(merged.contains("laptop's version") && merged.contains("desktop's version") && !merged.contains("first thoughts"), "\(merged)")
        #expect(merged.contains("[version 1 of 2 · ") && merged.contains("[version 2 of 2 · "), "\(merged)")
        #expect(outcome.reports.contains { $0.contains("page 7") && $0.contains("2 versions") }, "\(outcome.reports)")
        // Edited once, with both seen: one text everywhere.
        try laptop.store.setNote(citeKey: "knuth1984", page: 7, text: "merged by hand")
        try desktop.pull(from: laptop)
        #expect(try desktop.store.note(citeKey: "knuth1984", page: 7) == "merged by hand")
    }

    @Test func aBookmarkDeletedOnOneAndMovedOnTheOtherStaysDeletedAndTheMoveIsReported() throws {
        let laptop = try Machine("laptop")
        let desktop = try Machine("desktop")
        let folder = try laptop.store.addFolder(named: "Done")
        try laptop.store.addBookmark(named: "Paper", reference: Self.reference("smith2020", 4))
        try desktop.pull(from: laptop)
        let tree = try desktop.store.savedBookmarks()
        let paperOnDesktop = try #require(tree.nodes.first { $0.name == "Paper" }?.id)
        let doneOnDesktop = try #require(tree.folder(atPath: "Done")?.id)
        try desktop.store.move(node: paperOnDesktop, into: doneOnDesktop)
        let paperOnLaptop = try #require(try laptop.store.savedBookmarks().nodes.first { $0.name == "Paper" }?.id)
        try laptop.store.delete(node: paperOnLaptop)
        let outcome = try laptop.pull(from: desktop)
        try desktop.pull(from: laptop)
        #expect(try Self.shape(laptop.store) == ["folder Done"])
        #expect(try Self.shape(desktop.store) == ["folder Done"])
        #expect(outcome.reports.contains("\"Paper\" was moved on desktop but deleted on another machine: it stays deleted"), "\(outcome.reports)")
        _ = folder
    }

    @Test func aFolderDeletedOnOneKeepsWhatTheOtherAddedToItAtTheTopLevel() throws {
        let laptop = try Machine("laptop")
        let desktop = try Machine("desktop")
        let folder = try laptop.store.addFolder(named: "Old")
        try laptop.store.addBookmark(named: "Inside", reference: Self.reference("a2000", 1), in: folder)
        try desktop.pull(from: laptop)
        let old = try #require(try desktop.store.savedBookmarks().folder(atPath: "Old")?.id)
        try desktop.store.addBookmark(named: "Added meanwhile", reference: Self.reference("b2001", 2), in: old)
        try laptop.store.delete(node: folder)
        try laptop.pull(from: desktop)
        try desktop.pull(from: laptop)
        // The folder and what the laptop saw in it are gone; the desktop's new bookmark is kept.
        let expected = ["bookmark Added meanwhile → b2001 p. 2"]
        #expect(try Self.shape(laptop.store) == expected)
        #expect(try Self.shape(desktop.store) == expected)
    }

    @Test func twoMovesThatMakeACycleEndTheSameOnBothWithNothingLost() throws {
        let laptop = try Machine("laptop")
        let desktop = try Machine("desktop")
        let first = try laptop.store.addFolder(named: "A")
        let second = try laptop.store.addFolder(named: "B")
        try desktop.pull(from: laptop)
        let tree = try desktop.store.savedBookmarks()
        try laptop.store.move(node: first, into: second)
        try desktop.store.move(node: try #require(tree.folder(atPath: "B")?.id), into: try #require(tree.folder(atPath: "A")?.id))
        try laptop.pull(from: desktop)
        try desktop.pull(from: laptop)
        let shape = try Self.shape(laptop.store)
        #expect(shape == (try Self.shape(desktop.store)))
        #expect(shape.count == 2 && shape.contains { $0.hasSuffix("folder A") } && shape.contains { $0.hasSuffix("folder B") }, "\(shape)")
    }

    @Test func aLaterChangeOnAMachineWhoseClockIsTwoHoursBehindStillWinsOnceItHasSeenTheEarlierOne() throws {
        let laptop = try Machine("laptop")
        let server = try Machine("server", skew: -2 * 3_600_000)
        try laptop.store.save(ReadingPosition(fingerprint: "f1", path: "/p.pdf", page: 40, scroll: 0, updatedAt: 1))
        try server.pull(from: laptop)
        // The server reads on after seeing the laptop's page: its clock is behind, but its
        // change comes after the one it saw.
        try server.store.save(ReadingPosition(fingerprint: "f1", path: "/q.pdf", page: 250, scroll: 0.5, updatedAt: 2))
        try laptop.pull(from: server)
        let position = try #require(try laptop.store.position(fingerprint: "f1"))
        #expect(position.page == 250 && position.scroll == 0.5)
        #expect(position.machine == "server")
        #expect(position.path == "/p.pdf", "the path here is this machine's own")
        #expect(try server.store.position(fingerprint: "f1")?.machine == nil, "the server's own position")
    }

    @Test func whatTheStoreHeldBeforeSharingIsSharedOnceAtItsOwnTimes() throws {
        // A store whose changes were not recorded (its machine id file unreadable, as a store
        // of an earlier version had none).
        let folder = try Fixtures.temporaryDirectory()
        let idFile = folder.appendingPathComponent("machine-id")
        try Data("not an id\n".utf8).write(to: idFile)
        let old = try ReadingStore(directory: folder)
        #expect(old.machineID == nil && old.machineProblem != nil)
        let kept = try old.addFolder(named: "Kept", at: 1_600_000_000)
        try old.addBookmark(named: "Old paper", reference: Self.reference("old1999", 5), in: kept, at: 1_600_000_000)
        try old.setNote(citeKey: "old1999", page: 5, text: "an old note", at: 1_600_000_000)
        try old.save(ReadingPosition(fingerprint: "f4", path: "/old.pdf", page: 3, scroll: 0, updatedAt: 1_600_000_000))
        try old.recordReading(fingerprint: "f4", path: "/old.pdf", key: "old1999", at: 1_600_000_000)
        #expect(try old.ownOperations().isEmpty)
        try FileManager.default.removeItem(at: idFile)
        let laptop = try Machine("laptop", folder: folder)
        let desktop = try Machine("desktop")
        // The desktop read the same document later than the old store's position was saved.
        try desktop.store.save(ReadingPosition(fingerprint: "f4", path: "/d.pdf", page: 60, scroll: 0, updatedAt: 2_000_000_000))
        try laptop.pull(from: desktop)
        #expect(try Self.shape(laptop.store) == ["folder Kept", "  bookmark Old paper → old1999 p. 5"])
        #expect(try laptop.store.position(fingerprint: "f4")?.page == 60, "the later position wins over one saved in 2020")
        try desktop.pull(from: laptop)
        #expect(try Self.shape(desktop.store) == ["folder Kept", "  bookmark Old paper → old1999 p. 5"])
        #expect(try desktop.store.note(citeKey: "old1999", page: 5) == "an old note")
        let operations = try laptop.store.ownOperations()
        #expect(operations.filter { if case .addNode = $0.change { true } else { false } }.count == 2)
        #expect(operations.allSatisfy { $0.machine == laptop.store.machineID })
        // Recorded once: opening the store again records nothing more.
        let again = try ReadingStore(directory: folder)
        try again.addFolder(named: "New")
        #expect(try again.ownOperations().count == operations.count + 1)
    }

    @Test func whatTheLogCannotCarryStaysHereAndAMergeLeavesItAlone() throws {
        let laptop = try Machine("laptop")
        let desktop = try Machine("desktop")
        let long = String(repeating: "a long note. ", count: 1_500)
        try laptop.store.setNote(citeKey: "k1", page: 1, text: long)
        let longNotemark = try laptop.store.addNotemark(named: "long", text: long)
        try laptop.store.setNote(citeKey: "k1", page: 2, text: "windows\r\nline ends")
        try laptop.store.addBookmark(named: "tab\there", reference: Self.reference("k1", 3))
        try desktop.store.setNote(citeKey: "k2", page: 1, text: "from the desktop")
        try desktop.pull(from: laptop)
        try laptop.pull(from: desktop)
        // Still here after a merge, as typed: too long to share.
        #expect(try laptop.store.note(citeKey: "k1", page: 1) == long)
        #expect(try laptop.store.savedBookmarks().node(id: longNotemark)?.text == long)
        #expect(try laptop.store.note(citeKey: "k2", page: 1) == "from the desktop")
        // Not on the desktop; what could be shared was, cleaned as the log carries text.
        #expect(try desktop.store.note(citeKey: "k1", page: 1) == nil)
        #expect(try desktop.store.note(citeKey: "k1", page: 2) == "windows\nline ends")
        #expect(try Self.shape(desktop.store) == ["bookmark tab here → k1 p. 3"])
        // Once shorter, it is shared again.
        try laptop.store.setNote(citeKey: "k1", page: 1, text: "short now")
        try desktop.pull(from: laptop)
        #expect(try desktop.store.note(citeKey: "k1", page: 1) == "short now")
    }

    @Test func forgettingAMachineKeepsWhatItMadeVisible() throws {
        let laptop = try Machine("laptop")
        let lost = try Machine("lost")
        try lost.store.addBookmark(named: "From the lost laptop", reference: Self.reference("c2003", 9))
        try lost.store.setNote(citeKey: "c2003", page: 9, text: "a note made there")
        try lost.store.save(ReadingPosition(fingerprint: "f3", path: "/z.pdf", page: 17, scroll: 0, updatedAt: 3))
        try laptop.pull(from: lost)
        let before = try Self.shape(laptop.store)
        let lostID = try #require(lost.store.machineID)
        #expect(try laptop.store.forget(machine: lostID) >= 3)
        #expect(try Self.shape(laptop.store) == before)
        #expect(try laptop.store.note(citeKey: "c2003", page: 9) == "a note made there")
        #expect(try laptop.store.position(fingerprint: "f3")?.page == 17)
        #expect(try laptop.store.knownMachines()[lostID]?.forgotten == true)
        // Its log, read again, is left out.
        #expect(try laptop.pull(from: lost).newOperations == 0)
        #expect(throws: StateStoreError.cannotForgetThisMachine) { try laptop.store.forget(machine: try #require(laptop.store.machineID)) }
    }
}
