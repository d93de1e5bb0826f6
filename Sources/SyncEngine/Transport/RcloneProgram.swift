import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The rclone program, found on `PATH` and run with the user's environment (so rclone reads
/// `$RCLONE_CONFIG`, else its default configuration file, and `$RCLONE_CONFIG_PASS`).
///
/// Every run gets its standard input, output and error as unnamed temporary files (no pipe can
/// fill and stop it), never the terminal: rclone must not ask for a password (the reader owns
/// the screen), so `--ask-password=false`; its own retries are off (a sync tries again itself).
/// What it says on its standard error is only ever shown cleaned (``RcloneMessage``).
struct RcloneProgram: Sendable {
    /// The options of every run.
    static let commonOptions = ["--ask-password=false", "--retries", "1", "--log-level", "ERROR"]
    /// How a user gets rclone, for the message when it is missing.
    static let installAdvice = "install it with 'apt install rclone' (Debian, Ubuntu), or see https://rclone.org/install/"

    let executable: String
    let environment: [String: String]

    /// rclone as `PATH` in `environment` finds it.
    init(environment: [String: String]) throws {
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        guard let found = folders.map({ "\($0)/rclone" }).first(where: { (path: String) in access(path, X_OK) == 0 }) else {
            throw RemoteError.missingProgram(name: "rclone", advice: Self.installAdvice)
        }
        executable = found
        self.environment = environment
    }

    /// How one run ended.
    struct Outcome {
        /// The exit status (rclone's: 3 directory not found, 4 file not found, 5 temporary
        /// error); -1 when a signal ended it.
        var status: Int32
        var output: [UInt8]
        /// Its standard error, at most 64 kB of it, as it was: clean it before showing it.
        var errors: String

        /// The failure this outcome is (cleaned): passing for rclone's temporary errors and a
        /// run a signal ended.
        var failure: TransferFailure {
            if errors.contains("didn't find section in config file") {
                return .program(name: "rclone", message: "its configuration has no such remote ('rclone listremotes' lists them; "
                                    + "'rclone config' adds one)", transient: false)
            }
            let message = RcloneMessage.cleaned(errors)
            let statusText = status < 0 ? "ended by a signal" : "exit status \(status)"
            return .program(name: "rclone", message: message.isEmpty ? statusText : "\(message) (\(statusText))",
                            transient: status < 0 || [2, 5, 6].contains(status))
        }

        /// Whether rclone said there is nothing at the path (a file or folder not found).
        var isNotFound: Bool { status == 3 || status == 4 }
    }

    /// Runs rclone with `arguments`, `input` on its standard input, and waits for it.
    func run(_ arguments: [String], input: [UInt8] = []) throws -> Outcome {
        let output = try Self.scratchFile()
        let errors = try Self.scratchFile()
        let inputFile = try Self.scratchFile()
        if !input.isEmpty {
            try inputFile.write(contentsOf: input)
            try inputFile.seek(toOffset: 0)
        }
        let process = try start(arguments, input: inputFile, output: output, errors: errors)
        let status = process.wait()
        return Outcome(status: status, output: Array(try Self.contents(of: output)), errors: Self.text(of: errors))
    }

    /// Starts rclone with `arguments` and the given standard files; the caller waits for it.
    func start(_ arguments: [String], input: FileHandle? = nil, output: FileHandle, errors: FileHandle) throws -> ChildProcess {
        let nothing = input == nil ? open("/dev/null", O_RDONLY | O_CLOEXEC) : -1
        defer { if nothing >= 0 { close(nothing) } }
        return try ChildProcess(executable, Self.commonOptions + arguments, environment: environment,
                                 files: (input?.fileDescriptor ?? nothing, output.fileDescriptor, errors.fileDescriptor))
    }

    /// A new temporary file with no name (made and unlinked at once), for a run's standard files.
    static func scratchFile() throws -> FileHandle {
        var template = Array((FileManager.default.temporaryDirectory.path + "/bibread-rclone-XXXXXX").utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0, fcntl(descriptor, F_SETFD, FD_CLOEXEC) == 0 else {
            throw TransferFailure.write(path: FileManager.default.temporaryDirectory.path, reason: String(cString: strerror(errno)))
        }
        unlink(template)
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// All a scratch file holds.
    static func contents(of file: FileHandle) throws -> Data {
        try file.seek(toOffset: 0)
        return try file.readToEnd() ?? Data()
    }

    /// The first 64 kB a scratch file holds, as text (what rclone said on its standard error).
    static func text(of file: FileHandle) -> String {
        guard (try? file.seek(toOffset: 0)) != nil, let data = try? file.read(upToCount: 65_536) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}
