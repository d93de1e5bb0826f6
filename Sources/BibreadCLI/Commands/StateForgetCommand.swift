import ArgumentParser
import BibModel
import BibreadServices
import Foundation
import SyncEngine

/// `bibread state forget MACHINE`: drops a machine (a lost laptop) from the shared state.
struct StateForgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Stop sharing the reading state of a machine (a lost laptop): its logs are removed from the remote.",
        discussion: """
        What the machine made that is still to be seen (bookmarks, notes, positions, read \
        times) is kept: this machine shares it as its own first. MACHINE is a name from \
        bibread state status, or the start of a machine's id when two share a name.
        """)

    @Argument(help: ArgumentHelp("The machine's name or id.", valueName: "machine"))
    var machine: String

    @Argument(help: ArgumentHelp("A remote's name (default: the only one).", valueName: "remote"))
    var remote: String?

    func run() throws {
        let opened = try StateRemote.open(remote)
        do {
            try opened.locked {
                let exchange = opened.exchange
                let target = try ReadingStateExchange.machine(named: machine, among: try exchange.machines())
                let name = target.name.map(TerminalText.cleanedLine) ?? "unnamed"
                let removed = try exchange.forget(target)
                print("Forgot \(name) (\(target.id.rawValue.prefix(8))): \(removed) log file\(removed == 1 ? "" : "s") removed from '\(opened.remote.name)'; what it made is kept, shared by this machine")
            }
        } catch let error as StateMachineLookupError {
            Console.error("bibread: \(error)")
            throw ExitCode(64)
        } catch {
            Console.error("bibread: \(ErrorText.plain(error))")
            throw ExitStatus.problems
        }
    }
}
