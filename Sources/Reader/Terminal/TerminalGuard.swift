import Foundation
import Synchronization

/// Puts the terminal back the way the shell had it, whatever ends the program.
///
/// Terminating signals (SIGINT, SIGTERM, SIGHUP) set a flag and wake the event loop, which
/// then leaves curses normally. A flag is not enough when the loop is busy (stuck in a render):
/// the handler also wakes a watchdog thread, which gives the loop `signalGrace` to take the
/// signal up and otherwise restores the terminal and ends the program itself, with the status a
/// signal gives (128 + its number). Time while another program has the terminal (a pager the
/// user opened) does not count. Crashes (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE) run
/// a handler that uses only async-signal-safe calls: it writes the escape sequences that leave
/// the alternate screen and show the cursor, restores the saved terminal modes, replays what
/// was written to standard error while the screen was up (the crash message), says what crashed
/// and where the log is, and re-raises. The last is needed because an optimized build traps on a
/// failed check (an index out of range) with no message at all: without it, a crash on a
/// background thread left only the shell's "Illegal instruction".
public enum TerminalGuard {
    /// Set by a terminating signal; the event loop checks it.
    nonisolated(unsafe) static var pendingSignal: Int32 = 0
    /// Written to by signal handlers and background work to wake the event loop's poll.
    nonisolated(unsafe) static var wakeWriteDescriptor: Int32 = -1
    /// How long the event loop has, after a terminating signal, to take it up before the
    /// watchdog ends the program without it.
    static let signalGrace: Duration = .milliseconds(500)
    /// Posted by the terminating signals' handler (`sem_post` is async-signal-safe) for the watchdog.
    nonisolated(unsafe) private static let signalArrived: UnsafeMutablePointer<sem_t> = {
        let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
        return semaphore
    }()
    /// Whether the event loop has taken the terminating signal up (it is ending normally).
    private static let signalTakenUp = Atomic<Bool>(false)
    /// How many programs have the terminal now (the loop waits for them on purpose).
    private static let outsidePrograms = Atomic<Int>(0)
    private static let watchdogStarted = Atomic<Bool>(false)
    /// Set when a crash or the watchdog gives the terminal back: no frame is sent after that.
    private static let terminalGivenBack = Atomic<Bool>(false)
    /// How many frames are being sent to the terminal now (by the loop's thread).
    private static let framesBeingSent = Atomic<Int>(0)
    /// How long giving the terminal back waits for a frame being sent to end, in 2 ms steps.
    private static let frameWaitSteps = 100
    /// The saved modes, on the heap with room to spare: AddressSanitizer caught `tcgetattr`
    /// writing past the end of a `termios` global (Swift laid it out in 57 bytes; glibc writes 60).
    nonisolated(unsafe) private static let savedModes: UnsafeMutablePointer<termios> = {
        let room = max(256, MemoryLayout<termios>.stride)
        let raw = UnsafeMutableRawPointer.allocate(byteCount: room, alignment: 16)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: room)
        return raw.bindMemory(to: termios.self, capacity: 1)
    }()
    nonisolated(unsafe) private static var haveSavedModes = false
    nonisolated(unsafe) private static var restoreBytes: UnsafeMutablePointer<UInt8>?
    nonisolated(unsafe) private static var restoreCount = 0
    nonisolated(unsafe) private static var terminalDescriptor: Int32 = 1
    nonisolated(unsafe) private static var capturedErrors: Int32 = -1
    nonisolated(unsafe) private static var originalErrors: Int32 = -1
    nonisolated(unsafe) private static var replayBuffer: UnsafeMutableRawPointer?
    /// Per crash signal (by number), the report written after the terminal is restored: made
    /// beforehand, since a signal handler may not allocate.
    nonisolated(unsafe) private static var crashReports: [UnsafeMutableBufferPointer<UInt8>?] = []
    private static let replaySize = 4096

    /// The handlers that were there before, by signal number (Swift's backtracer among them).
    nonisolated(unsafe) static let previousActions: UnsafeMutablePointer<sigaction> = {
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: 32)
        actions.initialize(repeating: sigaction(), count: 32)
        return actions
    }()
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]
    static let terminatingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Saves the terminal modes; call before curses starts.
    static func saveModes(descriptor: Int32) {
        terminalDescriptor = descriptor
        haveSavedModes = tcgetattr(descriptor, savedModes) == 0
    }

    /// The bytes that undo full-screen mode: mouse reporting off, attributes reset, cursor shown,
    /// alternate screen left (from terminfo when it knows them).
    static func setRestoreSequence(_ text: String) {
        let bytes = Array(text.utf8)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, bytes.count))
        buffer.initialize(from: bytes, count: bytes.count)
        restoreBytes = buffer
        restoreCount = bytes.count
    }

    /// Sends standard error to `logPath` while the screen is up, so that messages from
    /// libraries never scribble over it (the file is replayed after a crash).
    static func captureStandardError(to logPath: String) {
        let descriptor = open(logPath, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        originalErrors = dup(2)
        capturedErrors = descriptor
        replayBuffer = UnsafeMutableRawPointer.allocate(byteCount: replaySize, alignment: 1)
        dup2(descriptor, 2)
        prepareCrashReports(logPath: logPath)
    }

    /// What a crash says after the terminal is back, for each crash signal.
    static func crashReport(signal: Int32, logPath: String?) -> String {
        let what: String
        switch signal {
        case SIGILL, SIGTRAP: what = "a check failed (\(signal == SIGILL ? "SIGILL" : "SIGTRAP"))"
        case SIGSEGV: what = "a bad memory access (SIGSEGV)"
        case SIGBUS: what = "a bad memory access (SIGBUS)"
        case SIGABRT: what = "it aborted (SIGABRT)"
        case SIGFPE: what = "an arithmetic error (SIGFPE)"
        default: what = "signal \(signal)"
        }
        var report = "\nbibread crashed: \(what). The terminal was restored."
        if let logPath {
            report += " What bibread wrote before the crash is above and in \(logPath)."
        }
        return report + " Please report it, with that file, at the project's issue tracker.\n"
    }

    private static func prepareCrashReports(logPath: String) {
        crashReports = (0..<32).map { number in
            guard crashSignals.contains(Int32(number)) else { return nil }
            let bytes = Array(crashReport(signal: Int32(number), logPath: logPath).utf8)
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
            _ = buffer.initialize(from: bytes)
            return buffer
        }
    }

    /// Puts standard error back.
    static func releaseStandardError() {
        guard originalErrors >= 0 else { return }
        dup2(originalErrors, 2)
        close(originalErrors)
        originalErrors = -1
        if capturedErrors >= 0 { close(capturedErrors) }
        capturedErrors = -1
    }

    /// Runs `body` with standard error on the terminal again (a program that takes over the
    /// terminal writes its messages there), then captures it again.
    static func withStandardErrorRestored(_ body: () -> Void) {
        guard originalErrors >= 0, capturedErrors >= 0 else {
            body()
            return
        }
        dup2(originalErrors, 2)
        body()
        dup2(capturedErrors, 2)
    }

    /// Installs the handlers.
    static func install() {
        // A launcher may have started us with these blocked (Foundation's Process does):
        // unblock them, or Ctrl-C from outside, SIGTERM and SIGHUP would never arrive.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signal in terminatingSignals + crashSignals { sigaddset(&unblock, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for signal in terminatingSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                TerminalGuard.pendingSignal = number
                var byte: UInt8 = 1
                if TerminalGuard.wakeWriteDescriptor >= 0 { _ = write(TerminalGuard.wakeWriteDescriptor, &byte, 1) }
                sem_post(TerminalGuard.signalArrived)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
        startWatchdog()
        for signal in crashSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                TerminalGuard.restoreFromSignal()
                TerminalGuard.replayCapturedErrors(signal: number)
                // Hand the signal to whoever handled it before (Swift's backtracer), now that
                // the terminal is usable: the faulting instruction runs again, or abort() raises
                // again, and that handler or the default action takes it.
                if number >= 0 && number < 32 {
                    sigaction(number, TerminalGuard.previousActions + Int(number), nil)
                } else {
                    Glibc.signal(number, SIG_DFL)
                }
                // A signal sent with kill(1) has no faulting instruction to run again: raise it
                // anew (it stays pending until this handler returns).
                raise(number)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, previousActions + Int(signal))
        }
    }

    /// Called by the event loop when it acts on `pendingSignal`: it ends normally from here on,
    /// and the watchdog leaves it to.
    static func takeUpSignal() {
        signalTakenUp.store(true, ordering: .releasing)
    }

    /// Runs `body` while another program has the terminal: the loop is waiting for it on
    /// purpose, so the watchdog does not count that time.
    static func whileOutside<Result>(_ body: () throws -> Result) rethrows -> Result {
        outsidePrograms.add(1, ordering: .acquiringAndReleasing)
        defer { outsidePrograms.subtract(1, ordering: .acquiringAndReleasing) }
        return try body()
    }

    /// Starts the thread that ends the program when the loop does not take a terminating
    /// signal up within `signalGrace` (once per process).
    private static func startWatchdog() {
        guard !watchdogStarted.exchange(true, ordering: .acquiringAndReleasing) else { return }
        Thread.detachNewThread {
            while true {
                guard sem_wait(signalArrived) == 0 else { continue }
                if loopTakesUpSignal() { continue }
                restoreFromSignal()
                _exit(128 + pendingSignal)
            }
        }
    }

    /// Whether the loop takes the signal up within `signalGrace`; the time runs only while no
    /// other program has the terminal.
    private static func loopTakesUpSignal() -> Bool {
        let clock = ContinuousClock()
        var deadline = clock.now + signalGrace
        while clock.now < deadline {
            if signalTakenUp.load(ordering: .acquiring) { return true }
            Thread.sleep(forTimeInterval: 0.01)
            if outsidePrograms.load(ordering: .acquiring) > 0 { deadline = clock.now + signalGrace }
        }
        return signalTakenUp.load(ordering: .acquiring)
    }

    /// Removes the crash handlers (after a normal exit from curses).
    static func uninstall() {
        for signal in crashSignals { sigaction(signal, previousActions + Int(signal), nil) }
        for signal in terminatingSignals { Glibc.signal(signal, SIG_DFL) }
    }

    /// Sends a frame to the terminal with `send`, unless the terminal has been given back (a
    /// crash on another thread, the watchdog). Giving it back waits for a frame being sent to
    /// end first: a frame sent after the restore sequence would land on the shell's screen
    /// (seen: the reader's group list written over the shell's lines after a worker crashed).
    static func sendingFrame(_ send: () -> Void) {
        framesBeingSent.add(1, ordering: .sequentiallyConsistent)
        defer { framesBeingSent.subtract(1, ordering: .sequentiallyConsistent) }
        guard !terminalGivenBack.load(ordering: .sequentiallyConsistent) else { return }
        send()
    }

    /// Async-signal-safe: stops frames from being sent, and waits (up to 200 ms: the crash
    /// may be in that very frame) for the one being sent to end.
    static func stopFrames() {
        terminalGivenBack.store(true, ordering: .sequentiallyConsistent)
        var steps = 0
        while framesBeingSent.load(ordering: .sequentiallyConsistent) > 0 && steps < frameWaitSteps {
            var step = timespec(tv_sec: 0, tv_nsec: 2_000_000)
            nanosleep(&step, nil)
            steps += 1
        }
    }

    /// Lets frames be sent again: for tests only (a process gives its terminal back once).
    static func resumeFramesForTests() {
        terminalGivenBack.store(false, ordering: .sequentiallyConsistent)
    }

    /// Whether frames are still sent (false once the terminal was given back).
    static var framesAreSent: Bool { !terminalGivenBack.load(ordering: .sequentiallyConsistent) }

    /// Async-signal-safe: writes the restore sequence and restores the saved modes.
    static func restoreFromSignal() {
        stopFrames()
        if let restoreBytes, restoreCount > 0 { _ = write(terminalDescriptor, restoreBytes, restoreCount) }
        if haveSavedModes { tcsetattr(terminalDescriptor, TCSANOW, savedModes) }
    }

    /// Async-signal-safe: copies the end of the captured standard error to the real one.
    private static func replayCapturedErrors(signal: Int32) {
        guard capturedErrors >= 0, originalErrors >= 0, let replayBuffer else { return }
        let end = lseek(capturedErrors, 0, SEEK_END)
        lseek(capturedErrors, max(0, end - off_t(replaySize)), SEEK_SET)
        let count = read(capturedErrors, replayBuffer, replaySize)
        if count > 0 { _ = write(originalErrors, replayBuffer, count) }
        if signal >= 0, Int(signal) < crashReports.count, let report = crashReports[Int(signal)] {
            _ = write(originalErrors, report.baseAddress, report.count)
            _ = write(capturedErrors, report.baseAddress, report.count)
        }
        dup2(originalErrors, 2)
    }
}
