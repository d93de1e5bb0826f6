import ArgumentParser
import DiskIO
import Foundation
import OpenWith

/// `bibread install-handler`: makes bibread:// links open bibread.
struct InstallHandlerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install-handler", abstract: "Make bibread:// links open bibread (a desktop entry for x-scheme-handler/bibread).",
        discussion: """
        Writes $XDG_DATA_HOME/applications/bibread.desktop (Terminal=true, Exec=bibread open %u) \
        and makes it the default for bibread: links with xdg-mime, so a link clicked in a browser \
        or a mail client opens bibread in your terminal emulator.
        """)

    @Flag(help: "Remove the desktop entry and the association instead.")
    var uninstall = false

    func run() throws {
        // The XDG folders themselves (BaseDirectories names bibread's folders inside them).
        let base = BaseDirectories()
        let dataHome = base.data.deletingLastPathComponent()
        let configHome = base.config.deletingLastPathComponent()
        if uninstall {
            do {
                let report = try DesktopIntegration.uninstall(dataHome: dataHome, configHome: configHome)
                if let file = report.removedDesktopFile { Console.print("Removed \(file.path)") }
                for list in report.editedAssociations { Console.print("Removed bibread from \(list.path)") }
                if report.removedDesktopFile == nil && report.editedAssociations.isEmpty { Console.print("Nothing to remove: bibread was not installed as a link handler") }
            } catch {
                Console.error("bibread: \(error)")
                throw ExitStatus.problems
            }
            return
        }
        let executable = Self.ownExecutable()
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let xdgMime = Launcher.findExecutable("xdg-mime", path: path)
        do {
            let report = try DesktopIntegration.install(bibreadExecutable: executable, dataHome: dataHome, xdgMime: xdgMime)
            Console.print("Wrote \(report.desktopFile.path)")
            switch report.xdgMime {
            case .notAvailable:
                Console.error("warning: xdg-mime is not installed (sudo apt install xdg-utils): the entry is written but not made the default for bibread: links")
            case .ran(let end) where end.succeeded:
                Console.print("bibread: links now open with \(executable) open LINK")
            case .ran(let end):
                Console.error("bibread: xdg-mime default failed (\(end))")
                throw ExitStatus.problems
            case .failedToStart(let error):
                Console.error("bibread: cannot run xdg-mime: \(error)")
                throw ExitStatus.problems
            }
        } catch let error as DesktopIntegrationError {
            Console.error("bibread: \(error)")
            throw ExitStatus.problems
        }
    }

    /// This program's absolute path (from /proc, so a relative or PATH start gives the file).
    static func ownExecutable() -> String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    }
}
