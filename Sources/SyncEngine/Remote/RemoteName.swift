import Foundation

/// The name a remote is kept under on this machine: a folder name under bibread's data and
/// cache folders, so it must be a plain one (`--name`, and names derived from URLs alike).
public enum RemoteName {
    /// True for a name that is one plain folder name: not empty, not starting with `.` (so
    /// neither `.` nor `..` nor a hidden folder), no `/` or NUL, at most 255 bytes.
    public static func isPlain(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\u{0}")
            && name.utf8.count <= RemotePath.maximumComponentLength
    }

    /// The name for a URL's path and host: the last folder of the path once `.` and `..` are
    /// resolved (percent-encoded ones too), kept to letters, digits, `-`, `_` and `.` and
    /// without leading dots; else the host; else `remote`.
    static func derived(path: String, host: String?) -> String {
        var folders: [String] = []
        for component in path.split(separator: "/").map(String.init) {
            let decoded = component.removingPercentEncoding ?? component
            switch decoded {
            case ".": continue
            case "..": _ = folders.popLast()
            default: folders.append(decoded)
            }
        }
        for candidate in [folders.last, host].compactMap({ $0 }) {
            let kept = candidate.replacingOccurrences(of: "dropbox:", with: "")
                .filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }
            let name = String(kept.drop { $0 == "." }.prefix(RemotePath.maximumComponentLength))
            if isPlain(name) { return name }
        }
        return "remote"
    }
}
