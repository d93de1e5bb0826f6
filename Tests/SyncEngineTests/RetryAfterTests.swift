import Foundation
import Testing
@testable import SyncEngine

/// `Retry-After` (RFC 9110, 10.2.3): seconds or an HTTP date, read into the wait it asks for.
@Suite("Retry-After")
struct RetryAfterTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT.
    static let now = 784_111_777.0

    @Test(arguments: [("2", 2.0), (" 120 ", 120.0), ("0", 0.0), ("Sun, 06 Nov 1994 08:50:37 GMT", 60.0),
                      ("Sun, 06 Nov 1994 08:49:00 GMT", 0.0)])
    func readsSecondsAndDates(_ header: String, _ seconds: Double) {
        #expect(RetryAfter.seconds(header, now: Self.now) == seconds)
    }

    /// More digits than an Int holds is a very long wait all the same, not none.
    @Test func aHugeNumberIsAVeryLongWait() {
        #expect((RetryAfter.seconds("99999999999999999999999", now: Self.now) ?? 0) > 1e20)
        #expect(RetryAfter.describe(1e23) == "a very long time")
    }

    @Test(arguments: ["", "soon", "-5", "1.5", "2 s"])
    func anythingElseIsNoWait(_ header: String) {
        #expect(RetryAfter.seconds(header, now: Self.now) == nil)
    }

    @Test func waitsAreSaidForPeople() {
        #expect(RetryAfter.describe(2) == "2 s")
        #expect(RetryAfter.describe(600) == "10 min")
        #expect(RetryAfter.describe(3600) == "1 h")
        #expect(RetryAfter.describe(3 * 86400) == "3 d")
    }

    /// The wait a server asks for is in the message of its answer.
    @Test func theWaitIsInTheMessage() {
        let busy = TransportError.http(status: 503, url: "https://me:secret@example.org/dav/", detail: "busy", retryAfter: 3600)
        #expect(busy.description == "https://example.org/dav/ answered 503: busy; it asks to be asked again in 1 h")
        #expect(busy.isTransient && busy.retryAfter == 3600)
    }
}
