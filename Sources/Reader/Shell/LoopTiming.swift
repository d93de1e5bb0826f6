import Foundation
import ReaderCore

/// With `BIBREAD_TIMINGS` set, writes to standard error (the state folder's stderr.log while the
/// screen is up) when background results arrive and how long each input took to show.
final class LoopTiming {
    private let enabled = ProcessInfo.processInfo.environment["BIBREAD_TIMINGS"] != nil
    private let start = ContinuousClock.now
    private var inputs: [(String, ContinuousClock.Instant)] = []
    /// A key that asked for a page (or a document) and when: logged once its text is drawn.
    private var waitingForPage: (String, ContinuousClock.Instant)?
    private var pageHasArrived = false

    func milestone(_ name: String) {
        guard enabled else { return }
        log("timing: \(name) at \(LoopTiming.milliseconds(ContinuousClock.now - start)) ms")
    }

    func beginInput(_ name: String) {
        guard enabled else { return }
        inputs.append((name, ContinuousClock.now))
    }

    /// Starts the clock for a page turn or a document opening that an input asked for.
    func noteWaits(_ effects: [Effect]) {
        guard enabled, let (name, began) = inputs.last else { return }
        for effect in effects {
            switch effect {
            case .document(.openDocument): waitingForPage = ("document \(name)", began)
            case .document(.extractPage): if waitingForPage == nil { waitingForPage = ("page \(name)", began) }
            default: break
            }
        }
    }

    func pageArrived() {
        pageHasArrived = true
    }

    /// The inputs read in one go (or the page they waited for) are on screen now.
    func endInputs() {
        guard enabled else { return }
        let now = ContinuousClock.now
        if pageHasArrived, let (name, began) = waitingForPage {
            log("timing: \(name) text shown after \(LoopTiming.milliseconds(now - began)) ms")
            waitingForPage = nil
        }
        pageHasArrived = false
        guard !inputs.isEmpty else { return }
        // When each was read, too (a line of its own: the benchmarks read "shown after N ms" at the
        // end of a line), so that what it asked for can be timed from it; one write for all.
        log(inputs.map { name, began in
            "timing: input \(name) shown after \(LoopTiming.milliseconds(now - began)) ms\n"
                + "timing: input \(name) read at \(LoopTiming.milliseconds(began - start)) ms"
        }.joined(separator: "\n"))
        inputs = []
    }

    private func log(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func milliseconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return String(format: "%.2f", value)
    }
}
