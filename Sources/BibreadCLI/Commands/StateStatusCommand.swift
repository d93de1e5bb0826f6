import ArgumentParser
import BibModel
import BibreadServices
import BibreadValues
import Foundation
import SyncEngine

/// `bibread state status`: which machines share their reading state through a remote.
struct StateStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Which machines share their reading state through a remote, when they last wrote, and how much.")

    @Argument(help: ArgumentHelp("A remote's name (default: the only one).", valueName: "remote"))
    var remote: String?

    func run() throws {
        let opened = try StateRemote.open(remote)
        let machines: [ReadingStateExchange.MachineStatus]
        let pending: Int
        do {
            machines = try opened.exchange.machines()
            pending = try opened.store.unsharedChangeCount(remote: opened.remote.name)
        } catch {
            Console.error("bibread: remote '\(opened.remote.name)': \(ErrorText.plain(error))")
            throw ExitStatus.problems
        }
        let now = Date().timeIntervalSince1970
        print("Reading state shared through '\(opened.remote.name)' (\(ReadingStateExchange.folder)/):")
        let nameWidth = machines.map { DisplayName.of($0).count }.max() ?? 0
        for machine in machines {
            let name = DisplayName.of(machine)
            var columns = [name.padding(toLength: nameWidth, withPad: " ", startingAt: 0), String(machine.id.rawValue.prefix(8))]
            if machine.forgotten {
                columns.append("forgotten")
            } else if machine.files == 0 {
                columns.append(machine.isThisMachine ? "nothing shared yet" : "no log")
            } else {
                columns.append("\(machine.files) file\(machine.files == 1 ? "" : "s"), \(ByteCount.format(machine.bytes))")
                if let written = machine.lastWritten { columns.append("last wrote \(ElapsedTime.ago(now - written))") }
            }
            if machine.isThisMachine { columns.append("(this machine)") }
            print("  " + columns.joined(separator: "  "))
        }
        if pending > 0 {
            print("\(pending) change\(pending == 1 ? "" : "s") made here \(pending == 1 ? "waits" : "wait") to be shared: bibread sync \(opened.remote.name)")
        }
    }

    /// How a machine is shown: its name cleaned for the terminal, or `unnamed`.
    enum DisplayName {
        static func of(_ machine: ReadingStateExchange.MachineStatus) -> String {
            machine.name.map(TerminalText.cleanedLine) ?? "unnamed"
        }
    }
}
