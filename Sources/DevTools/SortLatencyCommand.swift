import ArgumentParser
import BibModel
import Foundation
import Reader
import ReaderCore

/// `bibread-dev sort-latency`: the reader's sort of the reference list, alone (run by
/// `bench/sortmem-bench.sh`; and a command to profile). Loads a library once and times
/// `SortOrder.rank` for each order, several rounds, one core.
struct SortLatencyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sort-latency",
        abstract: "Time the reader's sort orders over a library (benchmark).")

    @Argument(help: ArgumentHelp("BibTeX files; several files form one library.", valueName: "library.bib"))
    var libraries: [String] = []

    @Option(help: "An order to time (repeatable): author, year, title, date-added, last-read; all when none.")
    var key: [String] = []

    @Option(help: "How many times to sort by each order.")
    var rounds = 5

    func validate() throws {
        for name in key where SortKey(rawValue: name) == nil { throw ValidationError("unknown order '\(name)'") }
        guard rounds > 0 else { throw ValidationError("--rounds must be positive") }
    }

    func run() throws {
        let (library, failures) = LibraryLoader.load(paths: libraries)
        for failure in failures { DevConsole.error("bibread-dev: \(failure)") }
        let keys = key.isEmpty ? SortKey.allCases : key.compactMap(SortKey.init(rawValue:))
        let clock = ContinuousClock()
        DevConsole.print("references: \(library.entries.count)")
        for sortKey in keys {
            var times: [Duration] = []
            for _ in 0..<rounds {
                times.append(clock.measure { _ = SortOrder.rank(library.entries, by: sortKey) })
            }
            times.sort()
            DevConsole.print("sort by \(sortKey.rawValue): best \(Self.milliseconds(times[0])), median \(Self.milliseconds(times[times.count / 2]))")
        }
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return String(format: "%.1f ms", value)
    }
}
