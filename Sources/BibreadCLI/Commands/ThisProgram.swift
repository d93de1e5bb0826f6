import Foundation

/// The running `bibread` program, for what it starts again later (a sync left to finish in the
/// background, a systemd service).
enum ThisProgram {
    /// Its absolute path (never PATH's guess): /proc/self/exe, else argv[0] made absolute.
    static var path: String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        let given = CommandLine.arguments.first ?? "bibread"
        return given.hasPrefix("/") ? given : FileManager.default.currentDirectoryPath + "/" + given
    }
}
