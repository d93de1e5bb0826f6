import DiskIO
import Foundation
import ReadingStateSync

/// Who this machine is to the reading state it shares through a remote: a random id made once
/// (`$XDG_STATE_HOME/bibread/machine-id`, only the user may read it) and a name people read
/// (`device_name` in config.toml, else the host name).
///
/// The id is made the first time it is needed and never again: written to a temporary file,
/// flushed, then linked to its name, so that two bibread processes starting at once end with
/// one id (the second link fails, and that process reads the first's). A file that does not
/// hold an id is an error with its path, never silently replaced: another id would make this
/// machine a stranger to its own earlier changes.
public struct MachineIdentity: Sendable, Equatable {
    public let id: MachineID
    public let name: String

    /// The identity of this machine: its id from the state folder (made now when there is none)
    /// and `name` (the config's `device_name`), or the host name.
    public static func load(state: URL = Directories().state, name: String? = nil) throws -> MachineIdentity {
        MachineIdentity(id: try machineID(in: state), name: defaultName(configured: name))
    }

    /// The id kept in `state` (made when there is none).
    static func machineID(in state: URL) throws -> MachineID {
        let url = state.appendingPathComponent("machine-id")
        if let id = try read(url) { return id }
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let made = MachineID.random()
        let contents = Data((made.rawValue + "\n").utf8)
        // An unnamed file linked to its name once whole: a process killed meanwhile leaves
        // nothing behind (a named temporary file would stay in the state folder).
        if let linked = try linkUnnamedFile(contents, in: state, to: url) {
            if linked { return made }
            guard let id = try read(url) else {
                throw MachineIdentityError(path: url.path, problem: "cannot be made: \(String(cString: strerror(EEXIST)))")
            }
            return id
        }
        // A file system without unnamed files: a named temporary file, linked, then removed.
        let temporary = state.appendingPathComponent(".machine-id.\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp")
        try AtomicFile.write(contents, to: temporary, mode: 0o600)
        defer { unlink(temporary.path) }
        if link(temporary.path, url.path) != 0 {
            guard errno == EEXIST, let id = try read(url) else {
                throw MachineIdentityError(path: url.path, problem: "cannot be made: \(String(cString: strerror(errno)))")
            }
            return id
        }
        let folder = open(state.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
        return made
    }

    /// Linux's `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`), which Swift does not import.
    private static let unnamedFile: Int32 = 0o20000000 | O_DIRECTORY

    /// Writes `contents` to an unnamed file in `folder`, flushes it and links it to `url` (and
    /// flushes the folder): true when linked, false when a file was there already; nil when the
    /// file system makes no unnamed files.
    private static func linkUnnamedFile(_ contents: Data, in folder: URL, to url: URL) throws -> Bool? {
        let descriptor = open(folder.path, unnamedFile | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL { return nil }
            throw MachineIdentityError(path: url.path, problem: "cannot be made: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var written = 0
        let bytes = [UInt8](contents)
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw MachineIdentityError(path: url.path, problem: "cannot be written: \(String(cString: strerror(errno)))") }
            written += count
        }
        guard fsync(descriptor) == 0 else { throw MachineIdentityError(path: url.path, problem: "cannot be flushed: \(String(cString: strerror(errno)))") }
        guard linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, url.path, AT_SYMLINK_FOLLOW) == 0 else {
            if errno == EEXIST { return false }
            throw MachineIdentityError(path: url.path, problem: "cannot be made: \(String(cString: strerror(errno)))")
        }
        let directory = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
        return true
    }

    /// The id the file at `url` holds; nil when there is no file. Read with the system's calls
    /// (a read interrupted by a signal is asked again), so that a file that cannot be read says
    /// why: Foundation's `contents(atPath:)` only says nil, and did so once with the file there.
    private static func read(_ url: URL) throws -> MachineID? {
        let data: [UInt8]
        do {
            data = try RegularFile.readAll(url.path, limit: 256)
        } catch {
            if error.isMissing { return nil }
            if case .tooLarge = error { throw notAnId(url) }
            throw MachineIdentityError(path: url.path, problem: "cannot be read: \(error)")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let id = MachineID(rawValue: text) else { throw notAnId(url) }
        return id
    }

    private static func notAnId(_ url: URL) -> MachineIdentityError {
        MachineIdentityError(path: url.path, problem: "does not hold a machine id (32 hexadecimal digits); "
                             + "move it away to make a new one, and this machine will then be a new one to the others")
    }

    /// The name this machine goes by: `configured` (config.toml's `device_name`, checked when
    /// read), else its host name cut to 64 characters.
    public static func defaultName(configured: String?) -> String {
        configured ?? String(hostName().prefix(64))
    }

    /// The host name, or `this machine` when there is none.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "this machine" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "this machine" : name
    }
}

/// The machine id file cannot be read or made.
public struct MachineIdentityError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let problem: String
    public var description: String { "\(path): \(problem)" }
}
