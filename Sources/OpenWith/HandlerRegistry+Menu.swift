import BibModel
import BibreadValues
import Foundation

extension HandlerRegistry {
    /// The menu for `intention` (every entry for nil): the entries whose values are all
    /// `available` (no DOI: no browser-at-DOI), then of those, the installed ones, plus the
    /// `always_show` ones, which show their install hint when missing; with `showAll`, every
    /// entry whose values are available. Registry order.
    ///
    /// `path` is the `PATH` to look programs up in; `environment` gives the variables entries
    /// take their program from (`BROWSER`, `PAGER`).
    public func menu(for intention: Intention?, available values: Set<Placeholder>, path: String,
                     environment: [String: String] = ProcessInfo.processInfo.environment,
                     showAll: Bool = false) -> [MenuItem]
    {
        let available = Set(values.map(\.canonical))
        var items: [MenuItem] = []
        for entry in entries(for: intention) where entry.placeholders.isSubset(of: available) {
            if entry.style == .osc52 {
                items.append(MenuItem(entry: entry, executable: nil, installHint: nil, isRunnable: true))
                continue
            }
            let executable = Launcher.resolveProgram(of: entry, path: path, environment: environment)
            guard executable != nil || entry.alwaysShow || showAll else { continue }
            items.append(MenuItem(entry: entry, executable: executable,
                                  installHint: executable == nil ? entry.installHint : nil,
                                  isRunnable: executable != nil))
        }
        return items
    }
}

extension HandlerEntry {
    /// How to install its program: `sudo apt install <package>`, or, without a package, a
    /// sentence naming the program.
    public var installHint: String {
        if let package { return "sudo apt install \(package)" }
        return "install '\(argv.first ?? id)' and put it on PATH"
    }
}
