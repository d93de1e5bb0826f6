import ArgumentParser
import BibModel
import Foundation
import SyncEngine

/// `bibread-dev search-latency`: the search-as-you-type benchmark (run by
/// `bench/search-bench.sh`). Types each query one character at a time and times every keystroke.
struct SearchLatencyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search-latency",
        abstract: "Time search as you type over a library (benchmark).")

    @Argument(help: ArgumentHelp("BibTeX files; several files form one library.", valueName: "library.bib"))
    var libraries: [String] = []

    @Option(help: "A query to type one character at a time (repeatable).")
    var query: [String] = ["author:knuth tex -errata year:1984..1990"]

    @Option(help: "How many times to type each query.")
    var rounds = 5

    func run() throws {
        let (library, failures) = LibraryLoader.load(paths: libraries)
        for failure in failures { DevConsole.error("bibread-dev: \(failure)") }
        let clock = ContinuousClock()
        var index: SearchIndex?
        let build = clock.measure { index = SearchIndex(entries: library.entries) }
        guard let index else { return }
        var latencies: [Duration] = []
        var keystrokes = 0
        for _ in 0..<rounds {
            for text in query {
                for length in 1...text.count {
                    let typed = String(text.prefix(length))
                    keystrokes += 1
                    latencies.append(clock.measure {
                        // A query that does not parse yet keeps the previous results, as the
                        // reader does; the parse attempt is part of the keystroke.
                        if let parsed = try? Query(parsing: typed) { _ = index.search(parsed).count }
                    })
                }
            }
        }
        latencies.sort()
        func milliseconds(_ duration: Duration) -> String {
            let value = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
            return String(format: "%.2f ms", value)
        }
        func percentile(_ fraction: Double) -> Duration {
            latencies[min(latencies.count - 1, Int(Double(latencies.count - 1) * fraction))]
        }
        // Smart groups: the built-in ones and those in the library, each evaluated over it all.
        let context = GroupContext(library: library, locator: LinkedFileLocator.shared)
        let groups = GroupCatalog.groups(of: library, synced: LinkedFileLocator.shared.isSynced(library)).filter { $0.kind == .smart || $0.kind == .builtin || $0.kind == .static }
        // BibDesk smart groups of each kind of condition, as a user's library would have them.
        let smart = Self.smartGroups
        var smartTimes: [(String, Duration)] = []
        for group in smart {
            smartTimes.append((group.name, clock.measure { _ = group.members(in: library, context: context) }))
        }
        var groupTimes: [(String, Duration)] = []
        for group in groups {
            groupTimes.append((group.name, clock.measure { _ = group.members(in: library, context: context) }))
        }
        let slowest = groupTimes.max { $0.1 < $1.1 }
        // Again, as the reader does after each change: costly facts (files on disk, dates) are known.
        var againTimes: [(String, Duration)] = []
        for group in groups {
            againTimes.append((group.name, clock.measure { _ = group.members(in: library, context: context) }))
        }
        let again = againTimes.reduce(Duration.zero) { $0 + $1.1 }
        let slowestAgain = againTimes.max { $0.1 < $1.1 }
        let final = try query.map { "\(index.count(try Query(parsing: $0))) for \($0)" }.joined(separator: "; ")
        DevConsole.print("references: \(index.entries.count); index built in \(milliseconds(build))")
        DevConsole.print("keystrokes: \(keystrokes); p50 \(milliseconds(percentile(0.5))), p95 \(milliseconds(percentile(0.95))), p99 \(milliseconds(percentile(0.99))), max \(milliseconds(latencies.last ?? .zero))")
        DevConsole.print("matches: \(final)")
        if let slowestSmart = smartTimes.max(by: { $0.1 < $1.1 }) {
            var againTimes: [Duration] = []
            for group in smart { againTimes.append(clock.measure { _ = group.members(in: library, context: context) }) }
            DevConsole.print("smart groups: \(smart.count) (text, number, date, yes/no, any field) evaluated first in "
                + smartTimes.map { milliseconds($0.1) }.joined(separator: ", ") + " (slowest \(slowestSmart.0)); again in "
                + againTimes.map { milliseconds($0) }.joined(separator: ", "))
        }
        if let slowest {
            let total = groupTimes.reduce(Duration.zero) { $0 + $1.1 }
            DevConsole.print("groups: \(groupTimes.count) smart, static and built-in evaluated in \(milliseconds(total)) (slowest \(slowest.0) \(milliseconds(slowest.1))); again in \(milliseconds(again)) (slowest \(slowestAgain?.0 ?? "") \(milliseconds(slowestAgain?.1 ?? .zero)))")
        }
    }

    /// BibDesk smart groups with one condition of each kind.
    static let smartGroups: [Group] = [
        Group.smart(named: "Title contains algorithm", conditions: [SmartCondition(key: "Title", comparison: 2, value: "algorithm")],
                    matchAll: true),
        Group.smart(named: "Year smaller 1990", conditions: [SmartCondition(key: "Year", comparison: 8, value: "1990")], matchAll: true),
        Group.smart(named: "Added in the last 2 years", conditions: [SmartCondition(key: "Date-Added", comparison: 5, value: "2 4")],
                    matchAll: true),
        Group.smart(named: "Read", conditions: [SmartCondition(key: "Read", comparison: 4, value: "1")], matchAll: true),
        Group.smart(named: "Author in group Knuth or keyword TeX",
                    conditions: [SmartCondition(key: "Author", comparison: 0, value: "Knuth"),
                                 SmartCondition(key: "Keywords", comparison: 2, value: "tex")], matchAll: false),
        Group.smart(named: "Any field contains dynamic", conditions: [SmartCondition(key: "Any Field", comparison: 2, value: "dynamic")],
                    matchAll: true),
    ]
}
