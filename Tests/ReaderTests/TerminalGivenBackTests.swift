import Foundation
import Testing
@testable import Reader

/// A crash on one thread gives the terminal back while the loop's thread may be sending a frame:
/// no frame may reach the terminal after the restore sequence (CI saw the reader's group list
/// written over the shell's lines after a worker crashed: ReaderEndToEndTests'
/// silentTrapOnAWorkerIsReported). `TerminalGuard.stopFrames` waits for a frame being sent and
/// refuses later ones. Process-wide state: the suite runs in its own order and puts it back.
@Suite("the terminal given back", .serialized)
struct TerminalGivenBackTests {
    @Test func aFrameBeingSentEndsBeforeTheTerminalIsGivenBackAndNoneIsSentAfter() throws {
        defer { TerminalGuard.resumeFramesForTests() }
        let events = EventLog()
        let sending = DispatchSemaphore(value: 0)
        let thread = Thread {
            TerminalGuard.sendingFrame {
                sending.signal()
                usleep(50_000)  // a frame long to write
                events.append("frame sent")
            }
        }
        thread.start()
        sending.wait()
        TerminalGuard.stopFrames()
        events.append("terminal given back")
        TerminalGuard.sendingFrame { events.append("a later frame") }
        #expect(events.all == ["frame sent", "terminal given back"])
        #expect(!TerminalGuard.framesAreSent)
    }

    @Test func framesAreSentUntilTheTerminalIsGivenBack() {
        defer { TerminalGuard.resumeFramesForTests() }
        var sent = 0
        TerminalGuard.sendingFrame { sent += 1 }
        TerminalGuard.sendingFrame { sent += 1 }
        #expect(sent == 2)
        #expect(TerminalGuard.framesAreSent)
    }

    final class EventLog: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [String] = []
        func append(_ event: String) { lock.withLock { events.append(event) } }
        var all: [String] { lock.withLock { events } }
    }
}
