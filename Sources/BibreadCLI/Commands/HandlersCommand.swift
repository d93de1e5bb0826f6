import ArgumentParser
import BibModel
import BibreadServices
import BibreadValues
import Foundation
import OpenWith

/// `bibread handlers`: the apps of the "open with" menu.
struct HandlersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "handlers", abstract: "List the apps bibread can open references with.",
        discussion: """
        Shows the installed apps (found on PATH) for each intention, and those marked \
        always_show with how to install them. The registry ships with bibread; add or override \
        entries with [[handler]] tables in config.toml (id, name, argv, stdin, intentions, \
        style, package, always_show, program_env, disabled).
        """)

    @Option(help: "Only the apps for this intention: read, study, cite or listen.")
    var intention: Intention?

    @Flag(help: "Also the apps that are not installed.")
    var all = false

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let config = Config.load(from: Directories().config)
        let (registry, problems) = HandlerRegistry.load(user: config.handlerSource?.text, userPath: config.handlerSource?.path ?? "config.toml")
        for problem in problems { Console.error("bibread: \(problem)") }
        let environment = ProcessInfo.processInfo.environment
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        let everything = Set(Placeholder.allCases.map(\.canonical))
        let intentions = intention.map { [$0] } ?? Intention.allCases
        if json {
            var report: [[String: Any]] = []
            for wanted in intentions {
                for item in registry.menu(for: wanted, available: everything, path: path, environment: environment, showAll: all) {
                    var object: [String: Any] = ["intention": wanted.rawValue, "id": item.entry.id, "name": item.entry.name,
                                                 "argv": item.entry.argv, "style": item.entry.style.rawValue, "installed": item.isRunnable]
                    object["program"] = item.executable
                    object["install"] = item.installHint
                    object["package"] = item.entry.package
                    object["stdin"] = item.entry.standardInput
                    report.append(object)
                }
            }
            let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .withoutEscapingSlashes])
            Console.print(String(decoding: data, as: UTF8.self))
            return
        }
        for (index, wanted) in intentions.enumerated() {
            let items = registry.menu(for: wanted, available: everything, path: path, environment: environment, showAll: all)
            if index > 0 { Console.print("") }
            Console.print(wanted.rawValue.capitalized)
            if items.isEmpty { Console.print("  (no app installed; --all lists the ones bibread knows)") }
            let idWidth = items.map(\.entry.id.count).max() ?? 0
            for item in items {
                let id = item.entry.id.padding(toLength: idWidth, withPad: " ", startingAt: 0)
                let state = item.isRunnable ? (item.executable ?? "built in (terminal clipboard)") : "not installed: \(item.installHint ?? "?")"
                Console.print("  \(item.isRunnable ? "✓" : "✗") \(id)  \(item.entry.name)  [\(state)]")
            }
        }
    }
}
