import Foundation

/// Paths as people read them: the home folder written `~`.
enum HomeFolder {
    /// `path` with the home folder (`$HOME`) at its start written `~`.
    static func abbreviated(_ path: String, home: String? = ProcessInfo.processInfo.environment["HOME"]) -> String {
        guard let home, !home.isEmpty, home != "/" else { return path }
        let folder = home.hasSuffix("/") ? String(home.dropLast()) : home
        if path == folder { return "~" }
        return path.hasPrefix(folder + "/") ? "~" + path.dropFirst(folder.count) : path
    }
}
