import BibreadServices
import Foundation

/// The systemd user units that sync a remote on a timer: `bibread-sync-NAME.service` runs one
/// `bibread sync --no-wait NAME` (a sync already running, the reader's, makes it skip that
/// turn: status 75 counts as success) and `bibread-sync-NAME.timer` starts it two minutes after
/// the user's service manager starts, then `interval` after each sync ends.
struct SyncServiceUnits {
    let remote: String
    let interval: SyncInterval
    /// The bibread program the service runs (an absolute path).
    let executable: String
    /// bibread's XDG variables as they are now, kept in the unit: the service manager's
    /// environment may lack them, and the sync must find the same config and folders.
    let environment: [String: String]

    /// The variables kept from the environment, when set.
    static let keptVariables = ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"]

    /// The units' common name, escaped as `systemd-escape` does (a unit name holds only ASCII
    /// letters, digits, `:`, `_`, `.` and `\xNN` escapes; `-` separates words here).
    var unitName: String { "bibread-sync-" + Self.escapedName(remote) }

    var serviceName: String { unitName + ".service" }
    var timerName: String { unitName + ".timer" }

    /// `name` as a part of a unit name.
    static func escapedName(_ name: String) -> String {
        var text = ""
        for (index, byte) in name.utf8.enumerated() {
            let scalar = Unicode.Scalar(byte)
            let plain = (byte < 0x80 && (Character(scalar).isLetter || Character(scalar).isNumber)) || byte == UInt8(ascii: ":")
                || byte == UInt8(ascii: "_") || (byte == UInt8(ascii: ".") && index > 0)
            text += plain ? String(Character(scalar)) : String(format: "\\x%02x", byte)
        }
        return text
    }

    /// One word of a unit file's value, quoted: systemd reads C escapes inside double quotes,
    /// and `%` (a specifier) and `$` (a variable) must be doubled.
    static func quoted(_ word: String) -> String {
        var text = "\""
        for character in word {
            switch character {
            case "\\": text += "\\\\"
            case "\"": text += "\\\""
            case "%": text += "%%"
            case "$": text += "$$"
            default: text.append(character)
            }
        }
        return text + "\""
    }

    /// A text for a Description line (no specifiers, no line breaks).
    private static func plain(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%%").replacingOccurrences(of: "\n", with: " ")
    }

    var service: String {
        var lines = [
            "# Written by bibread install-sync-service: one sync of the remote '\(Self.plain(remote))', started by \(timerName).",
            "# Its output goes to the journal: journalctl --user -u \(serviceName)",
            "[Unit]",
            "Description=bibread: sync the remote '\(Self.plain(remote))'",
            "",
            "[Service]",
            "Type=oneshot",
            "ExecStart=" + [executable, "sync", "--no-wait", remote].map(Self.quoted).joined(separator: " "),
            "# 75: another sync of the remote was running (the reader's); this turn is skipped.",
            "SuccessExitStatus=75",
            "Nice=10",
            "IOSchedulingClass=idle",
        ]
        for name in Self.keptVariables {
            if let value = environment[name], value.hasPrefix("/") { lines.append("Environment=" + Self.quoted("\(name)=\(value)")) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    var timer: String {
        [
            "# Written by bibread install-sync-service: syncs the remote '\(Self.plain(remote))' every \(interval).",
            "[Unit]",
            "Description=bibread: sync the remote '\(Self.plain(remote))' every \(interval)",
            "",
            "[Timer]",
            "OnStartupSec=2min",
            "OnUnitInactiveSec=\(interval)",
            "",
            "[Install]",
            "WantedBy=timers.target",
        ].joined(separator: "\n") + "\n"
    }
}
