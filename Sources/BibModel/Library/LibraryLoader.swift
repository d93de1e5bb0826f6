import DiskIO
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads .bib files from disk into a `Library`, turning unreadable files into `LoadFailure`s.
public enum LibraryLoader {
    /// Loads every readable file of `paths` (in order, sharing `@string`s) and lists the others.
    ///
    /// With `preparingLineNumbers`, each file's line numbers are worked out on another thread
    /// while `crossref` fields are resolved (on one thread): a caller that will print the line
    /// of every entry or diagnostic (`list --json`, `check`) then finds them ready.
    public static func load(paths: [String], preparingLineNumbers: Bool = false) -> (library: Library, failures: [LoadFailure]) {
        load(paths: paths, reading: paths, preparingLineNumbers: preparingLineNumbers)
    }

    /// Loads the files at `sources` as if they were at `paths` (the same count): entries,
    /// diagnostics, failures and linked files name and resolve against `paths`. A download
    /// is checked this way before it is renamed into place.
    public static func load(paths: [String], reading sources: [String],
                            preparingLineNumbers: Bool = false) -> (library: Library, failures: [LoadFailure]) {
        precondition(paths.count == sources.count, "one source per path")
        var failures: [LoadFailure] = []
        var macros = MacroTable()
        var files: [BibFile] = []
        let timer = PhaseTimer()
        for (path, source) in zip(paths, sources) {
            let bytes = read(source).mapError { LoadFailure(path: path, reason: $0.reason) }
            timer.lap("read \(source)")
            switch bytes {
            case .failure(let failure):
                failures.append(failure)
            case .success(let bytes):
                let file = BibFile.parse(bytes: bytes, path: path, macros: &macros)
                timer.lap("parse \(path)")
                if file.isEmptyOfBibTeX {
                    failures.append(LoadFailure(path: path, reason: .noEntries))
                }
                files.append(file)
            }
        }
        let library = Library(files: consume files, preparingLineNumbers: preparingLineNumbers)
        timer.lap("index and crossref")
        return (library, failures)
    }

    /// The bytes of a file that looks like text, or why it cannot be used.
    public static func read(_ path: String) -> Result<[UInt8], LoadFailure> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .failure(LoadFailure(path: path, reason: .missing))
        }
        if isDirectory.boolValue { return .failure(LoadFailure(path: path, reason: .directory)) }
        let bytes: [UInt8]
        do {
            bytes = try readWholeFile(path)
        } catch let failure as LoadFailure {
            return .failure(failure)
        } catch {
            return .failure(LoadFailure(path: path, reason: .unreadable(String(describing: error))))
        }
        if bytes.allSatisfy(isWhitespace) { return .failure(LoadFailure(path: path, reason: .empty)) }
        if bytes.withUnsafeBufferPointer({ buffer in
            buffer.baseAddress.map { memchr($0, 0, buffer.count) != nil } ?? false
        }) {
            return .failure(LoadFailure(path: path, reason: .binary))
        }
        return .success(bytes)
    }

    /// Reads a file straight into one buffer (no mapping, no second copy); only a regular file,
    /// never opened so that it can block (a FIFO waits for a writer for good).
    private static func readWholeFile(_ path: String, parallelReadSize: Int = 8 << 20) throws -> [UInt8] {
        let descriptor: Int32
        do {
            descriptor = try RegularFile.openForReading(path)
        } catch {
            switch error {
            case .notRegular(let kind): throw LoadFailure(path: path, reason: .notRegularFile(kind: kind))
            case .system, .tooLarge: throw LoadFailure(path: path, reason: error.isMissing ? .missing : .unreadable(error.description))
            }
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw LoadFailure(path: path, reason: .unreadable(String(cString: strerror(errno))))
        }
        let size = Int(status.st_size)
        guard size < Int(UInt32.max) else { throw LoadFailure(path: path, reason: .tooLarge) }
        let parts = size >= parallelReadSize ? 2 : 1
        let partSize = (size + parts - 1) / parts
        var failure: Int32 = 0
        var short = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            guard let base = buffer.baseAddress else { return }
            // A large file is read in two halves at once: most of a read's time is the kernel
            // giving the buffer its pages, which two cores do twice as fast.
            let outcomes = LockedValue([(got: Int, error: Int32)](repeating: (0, 0), count: parts))
            let start = UInt(bitPattern: base)
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let offset = part * partSize
                let outcome = readFully(descriptor, into: start + UInt(offset), count: min(partSize, size - offset), at: offset)
                outcomes.withLock { $0[part] = outcome }
            }
            for (part, outcome) in outcomes.withLock({ $0 }).enumerated() {
                if outcome.error != 0 { failure = outcome.error; return }
                count += outcome.got
                // The file shrank while it was read: keep only what came in order.
                if outcome.got < min(partSize, size - part * partSize) { short = true; return }
            }
        }
        if failure != 0 { throw LoadFailure(path: path, reason: .unreadable(String(cString: strerror(failure)))) }
        if short { return try readWholeFile(path, parallelReadSize: Int.max) }
        return bytes
    }

    /// Reads up to `count` bytes at file offset `offset` into the buffer at address `start`;
    /// stops early only at the end of the file or on an error.
    private static func readFully(_ descriptor: Int32, into start: UInt, count: Int, at offset: Int) -> (got: Int, error: Int32) {
        guard let base = UnsafeMutableRawPointer(bitPattern: start) else { return (0, EINVAL) }
        var got = 0
        while got < count {
            do throws(SystemCallError) {
                let read = try SystemCall.retrying("pread") { pread(descriptor, base + got, count - got, off_t(offset + got)) }
                if read == 0 { break }
                got += read
            } catch {
                return (got, error.code)
            }
        }
        return (got, 0)
    }
}
