import Foundation

/// The outcome of running a program to completion.
public struct ProcessResult: Sendable {
    public let status: Int32
    public let standardOutput: String
    public let standardError: String
}

/// Runs the real `bibread` binary (and other programs) the way a user would.
public enum ProcessRunner {
    /// The `bibread` executable built beside the test bundle.
    public static var bibreadExecutable: URL { builtExecutable("bibread") }

    /// The `bibread-dev` executable built beside the test bundle: the development tools (the
    /// reader with its test hooks, `write-stress`, the benchmarks) that `bibread` does not carry.
    public static var developmentExecutable: URL { builtExecutable("bibread-dev") }

    /// The executable `name` of this package, built beside the test bundle.
    public static func builtExecutable(_ name: String) -> URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // On Linux the test runner is `.build/<triple>/debug/<package>PackageTests.xctest`.
        if directory.pathExtension == "xctest" { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent(name)
    }

    /// Runs `bibread` with `arguments`, optionally with extra environment variables.
    public static func bibread(_ arguments: [String], environment: [String: String] = [:],
                               currentDirectory: URL? = nil) throws -> ProcessResult {
        try run(bibreadExecutable, arguments, environment: environment, currentDirectory: currentDirectory)
    }

    /// Runs `bibread-dev` with `arguments`, optionally with extra environment variables.
    public static func development(_ arguments: [String], environment: [String: String] = [:],
                                   currentDirectory: URL? = nil) throws -> ProcessResult {
        try run(developmentExecutable, arguments, environment: environment, currentDirectory: currentDirectory)
    }

    /// Runs any program and collects its output (both streams read concurrently, so a chatty
    /// program cannot block on a full pipe).
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:],
                           currentDirectory: URL? = nil) throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged["COLUMNS"] = nil
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let collected = OutputCollector()
        let group = DispatchGroup()
        for (index, pipe) in [output, error].enumerated() {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(index, data)
                group.leave()
            }
        }
        group.wait()
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus,
                             standardOutput: String(decoding: collected.get(0), as: UTF8.self),
                             standardError: String(decoding: collected.get(1), as: UTF8.self))
    }
}

private final class OutputCollector: @unchecked Sendable {
    private var data: [Data] = [Data(), Data()]
    private let lock = NSLock()

    func set(_ index: Int, _ value: Data) {
        lock.lock()
        data[index] = value
        lock.unlock()
    }

    func get(_ index: Int) -> Data {
        lock.lock()
        defer { lock.unlock() }
        return data[index]
    }
}
