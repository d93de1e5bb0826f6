import ArgumentParser
import BibreadServices
import Foundation
import SyncEngine

/// `bibread sync --every INTERVAL`: a sync, a wait, a sync again, until SIGTERM (exit 0) or
/// Ctrl-C (exit 130). A round that fails is reported and the next one runs all the same; the
/// wait is counted from the end of a round, so two rounds never overlap.
struct RepeatedSync {
    let remote: String
    let interval: SyncInterval
    let cancel: CancelOnInterrupt

    /// Runs `round` until stopped; throws the exit status.
    func run(_ round: () throws -> SyncSummary) throws {
        var number = 0
        while !cancel.isCancelled() {
            number += 1
            Console.error("bibread: \(LocalTimeText.of(Date().timeIntervalSince1970)) sync \(number) of '\(remote)'")
            do {
                let summary = try round()
                for problem in summary.problems { Console.error("bibread: \(problem)") }
                if summary.cancelled { break }
                if !summary.succeeded { Console.error("bibread: sync \(number) of '\(remote)' did not succeed") }
            } catch let failure as RoundFailure {
                if cancel.isCancelled() { break }
                Console.error("bibread: sync \(number) of '\(remote)' failed (\(failure.message))")
            }
            if cancel.isCancelled() { break }
            Console.error("bibread: next sync of '\(remote)' in \(interval)")
            cancel.sleep(seconds: interval.seconds)
        }
        Console.error("bibread: stopped after \(number) sync\(number == 1 ? "" : "s") of '\(remote)'")
        // A service manager's SIGTERM is the ordinary end of the job; Ctrl-C is an interruption.
        if cancel.stoppingSignal == SIGINT { throw ExitCode(130) }
    }
}
