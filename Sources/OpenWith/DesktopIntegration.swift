import DiskIO
import Foundation

/// Makes `bibread:` links open bibread: a desktop entry for `x-scheme-handler/bibread` in
/// `$XDG_DATA_HOME/applications`, made the default by `xdg-mime`, so a link clicked in a
/// browser or mail client starts `bibread open <link>` in the user's terminal emulator
/// (`Terminal=true`).
public enum DesktopIntegration {
    /// The desktop file's name.
    public static let desktopFileName = "bibread.desktop"
    /// The MIME type of `bibread:` links.
    public static let mimeType = "x-scheme-handler/bibread"

    /// The desktop file's text for a bibread at `bibreadExecutable` (an absolute path).
    public static func desktopEntry(bibreadExecutable: String) throws(DesktopIntegrationError) -> String {
        guard bibreadExecutable.hasPrefix("/") else { throw .relativeExecutable(bibreadExecutable) }
        guard let program = DesktopEntryText.execArgument(bibreadExecutable) else {
            throw .unrepresentableExecutable(bibreadExecutable)
        }
        return """
        [Desktop Entry]
        Type=Application
        Name=bibread
        Exec=\(program) open %u
        Terminal=true
        NoDisplay=true
        MimeType=\(mimeType);

        """
    }

    /// Writes `<dataHome>/applications/bibread.desktop` atomically, then, when `xdgMime` (the
    /// path of `xdg-mime`) is given, runs `xdg-mime default bibread.desktop
    /// x-scheme-handler/bibread` (as argv, with `environment`, bibread's own when nil).
    public static func install(bibreadExecutable: String, dataHome: URL, xdgMime: String?,
                               environment: [String: String]? = nil) throws(DesktopIntegrationError) -> InstallReport
    {
        let text = try desktopEntry(bibreadExecutable: bibreadExecutable)
        let file = desktopFile(dataHome: dataHome)
        do {
            try AtomicFile.write(Data(text.utf8), to: file)
        } catch {
            throw .write("\(error)")
        }
        guard let xdgMime else { return InstallReport(desktopFile: file, xdgMime: .notAvailable) }
        let command = PreparedCommand(executable: xdgMime, arguments: ["default", desktopFileName, mimeType])
        do {
            let process = try Launcher.spawn(command, style: .quick, environment: environment)
            return InstallReport(desktopFile: file, xdgMime: .ran(process.waitUntilExit()))
        } catch {
            return InstallReport(desktopFile: file, xdgMime: .failedToStart(error))
        }
    }

    /// Removes the desktop file and takes bibread.desktop out of the `x-scheme-handler/bibread`
    /// lines of `<configHome>/mimeapps.list` (where `xdg-mime default` writes) and of the older
    /// `<dataHome>/applications/mimeapps.list`, each rewritten atomically and only if it
    /// changes. `xdg-mime` has no command to undo a default, so it is not run; a stale
    /// `mimeinfo.cache` line naming the removed file is ignored by desktops.
    public static func uninstall(dataHome: URL, configHome: URL) throws(DesktopIntegrationError) -> UninstallReport {
        var report = UninstallReport(removedDesktopFile: nil, editedAssociations: [])
        let file = desktopFile(dataHome: dataHome)
        if unlink(file.path) == 0 {
            report.removedDesktopFile = file
        } else if errno != ENOENT {
            throw .file(SystemCallError(call: "unlink \(file.path)", code: errno))
        }
        let lists = [
            configHome.appendingPathComponent("mimeapps.list"),
            dataHome.appendingPathComponent("applications").appendingPathComponent("mimeapps.list"),
        ]
        for list in lists {
            guard let data = FileManager.default.contents(atPath: list.path),
                  let text = String(data: data, encoding: .utf8),
                  let edited = MimeAppsList.removing(desktopFileName, for: mimeType, from: text)
            else { continue }
            do {
                try AtomicFile.write(Data(edited.utf8), to: list, mode: permissions(of: list) ?? 0o644)
            } catch {
                throw .write("\(error)")
            }
            report.editedAssociations.append(list)
        }
        return report
    }

    /// `<dataHome>/applications/bibread.desktop`.
    public static func desktopFile(dataHome: URL) -> URL {
        dataHome.appendingPathComponent("applications").appendingPathComponent(desktopFileName)
    }

    private static func permissions(of url: URL) -> mode_t? {
        var information = stat()
        guard stat(url.path, &information) == 0 else { return nil }
        return information.st_mode & 0o7777
    }
}
