import Foundation

/// Whether NetworkManager says the connection is metered: `nmcli` on PATH lists each device's
/// `GENERAL.METERED` (`yes`, `yes (guessed)`, `no`, `unknown`); a guessed yes counts as yes, as
/// NetworkManager's documentation advises. No nmcli, or no answer, counts as not metered.
public enum NetworkState {
    /// Whether the connection is metered now (see the type).
    public static func isMetered(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        guard let nmcli = folders.map({ $0 + "/nmcli" }).first(where: FileManager.default.isExecutableFile(atPath:)) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: nmcli)
        process.arguments = ["-t", "-f", "GENERAL.METERED", "device", "show"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return false }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").contains { line in
            line.lowercased().split(separator: ":", maxSplits: 1).last.map { $0.hasPrefix("yes") } ?? false
        }
    }
}
