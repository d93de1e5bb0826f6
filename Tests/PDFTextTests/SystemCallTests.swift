import DiskIO
import Foundation
import Glibc
import Testing

/// How many times the test's SIGUSR2 handler ran.
nonisolated(unsafe) private var interruptions: Int32 = 0

/// DiskIO's one EINTR-retrying system call helper (PDFText's reads go through it): a read that a
/// real signal interrupts, again and again, still returns the bytes, and a failure is a typed
/// error that says which call failed and why.
@Suite("System calls retried after EINTR", .serialized)
struct SystemCallTests {
    @Test func aReadInterruptedBySignalsIsAskedAgainAndReturnsTheBytes() throws {
        // A handler without SA_RESTART, so that a blocked read ends with EINTR.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in interruptions += 1 }
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        #expect(sigaction(SIGUSR2, &action, &previous) == 0)
        defer { sigaction(SIGUSR2, &previous, nil) }

        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let reader = ends[0]
        let outcome = Locked<Result<[UInt8], SystemCallError>?>(nil)
        let reading = Locked<pthread_t?>(nil)
        let thread = Thread {
            // The signal must reach this thread (a test runner may have blocked it).
            var unblocked = sigset_t()
            sigemptyset(&unblocked)
            sigaddset(&unblocked, SIGUSR2)
            pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
            reading.set(pthread_self())
            var buffer = [UInt8](repeating: 0, count: 16)
            let result = Result { () throws(SystemCallError) -> [UInt8] in
                let count = try buffer.withUnsafeMutableBytes { bytes in
                    Result { () throws(SystemCallError) in try SystemCall.retrying("read") { read(reader, bytes.baseAddress, bytes.count) } }
                }.get()
                return Array(buffer.prefix(count))
            }
            outcome.set(result)
        }
        thread.start()
        while reading.value == nil { usleep(1_000) }
        let target = try #require(reading.value)
        // The reader blocks in read (the pipe is empty); interrupt it a few times over 0.3 s.
        interruptions = 0
        for _ in 0..<6 {
            usleep(50_000)
            pthread_kill(target, SIGUSR2)
        }
        usleep(50_000)
        #expect(outcome.value == nil, "the read ended before any byte was written: \(String(describing: outcome.value))")
        let bytes: [UInt8] = [0x61, 0x62, 0x63]
        #expect(write(ends[1], bytes, bytes.count) == 3)
        let deadline = Date().addingTimeInterval(10)
        while outcome.value == nil && Date() < deadline { usleep(1_000) }
        #expect(interruptions >= 1)
        switch outcome.value {
        case .success(let got): #expect(got == bytes)
        case .failure(let error): Issue.record("the read failed: \(error)")
        case nil: Issue.record("the read did not end within 10 s")
        }
    }

    @Test func aFailureIsATypedErrorNamingTheCallAndTheReason() {
        #expect(throws: SystemCallError(call: "close", code: EBADF)) {
            try SystemCall.retrying("close") { close(-1) }
        }
        let error = SystemCallError(call: "close", code: EBADF)
        #expect(error.description == "close failed: Bad file descriptor")
        #expect(error.reason == "Bad file descriptor")
    }
}

/// A value shared between the test and its reading thread.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func set(_ value: Value) { lock.withLock { stored = value } }
}
