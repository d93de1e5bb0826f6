import BibreadServices
import Foundation

/// Watches a library's files for changes other programs make (BibDesk or JabRef on a shared
/// folder, `$EDITOR`, a sync client) and says which changed once they settle. It watches their
/// folders with inotify, since editors and sync clients mostly write a new file and rename it
/// over the old one (a watch on the file itself would follow the old, replaced file).
final class LibraryWatcher: @unchecked Sendable {
    private let descriptor: Int32
    /// Each watched folder (by watch descriptor) and the names of the library files in it.
    private let watched: [Int32: (folder: String, names: Set<String>)]
    private let stopped = NSLock()
    private var isStopped = false
    private let thread: Thread
    private let stamps: FileStamps

    /// Starts watching `paths`; `changed` gets the paths that changed, after `settle` seconds
    /// without a further change. Nil when inotify is not available (nothing is watched then).
    init?(paths: [String], settle: TimeInterval = 0.3, changed: @escaping @Sendable ([String]) -> Void) {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { return nil }
        var byFolder: [String: Set<String>] = [:]
        for path in paths {
            let url = URL(fileURLWithPath: path).standardizedFileURL
            byFolder[url.deletingLastPathComponent().path, default: []].insert(url.lastPathComponent)
        }
        var watched: [Int32: (folder: String, names: Set<String>)] = [:]
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM)
        for (folder, names) in byFolder {
            let watch = inotify_add_watch(descriptor, folder, mask)
            if watch >= 0 { watched[watch] = (folder, names) }
        }
        guard !watched.isEmpty else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        self.watched = watched
        let stamps = FileStamps(paths: paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        self.stamps = stamps
        // Only what differs from the files as last read is a change: a sync that wrote the
        // .bib and had it read again has nothing left to report.
        let box = WatchLoop(descriptor: descriptor, watched: watched, settle: settle) { paths in
            let different = stamps.changed(among: paths)
            if !different.isEmpty { changed(different) }
        }
        thread = Thread { box.run() }
        box.isStopped = { [weak self] in self?.stoppedNow ?? true }
        thread.name = "bibread.library-watcher"
        thread.start()
    }

    private var stoppedNow: Bool { stopped.withLock { isStopped } }

    /// Notes the library's files as they are now (just read): what a report would say of them
    /// until they change again is nothing.
    func noteRead() {
        stamps.record()
    }

    /// True when the file at `path` is as last read (or noted written): no change of another
    /// program waits to be read.
    func isAsLastRead(_ path: String) -> Bool {
        stamps.changed(among: [URL(fileURLWithPath: path).standardizedFileURL.path]).isEmpty
    }

    /// Notes the file at `path` as the reader's own write left it (`stamp`), when it is still
    /// that write: a change another program made since is still reported.
    func noteWritten(_ path: String, stamp: LoadedFileStamp) {
        stamps.record(URL(fileURLWithPath: path).standardizedFileURL.path, ifStill: stamp)
    }

    /// Stops watching (the thread ends within its next poll, a fifth of a second).
    func stop() {
        stopped.withLock { isStopped = true }
    }

    deinit {
        stop()
    }
}

/// The watcher's thread: polls the inotify descriptor, collects which library files changed,
/// and reports them once nothing changed for `settle` seconds. It closes the descriptor when
/// told to stop.
private final class WatchLoop: @unchecked Sendable {
    let descriptor: Int32
    let watched: [Int32: (folder: String, names: Set<String>)]
    let settle: TimeInterval
    let changed: @Sendable ([String]) -> Void
    var isStopped: () -> Bool = { false }

    init(descriptor: Int32, watched: [Int32: (folder: String, names: Set<String>)], settle: TimeInterval,
         changed: @escaping @Sendable ([String]) -> Void) {
        self.descriptor = descriptor
        self.watched = watched
        self.settle = settle
        self.changed = changed
    }

    func run() {
        defer { close(descriptor) }
        var pendingPaths = Set<String>()
        var lastChange = Date.distantPast
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while !isStopped() {
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, 200)
            if ready > 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    let paths = changedPaths(in: buffer, count: count)
                    if !paths.isEmpty {
                        pendingPaths.formUnion(paths)
                        lastChange = Date()
                    }
                }
            } else if ready < 0 && errno != EINTR {
                return
            }
            if !pendingPaths.isEmpty && Date().timeIntervalSince(lastChange) >= settle {
                changed(pendingPaths.sorted())
                pendingPaths = []
            }
        }
    }

    /// The library files named by the inotify events in the first `count` bytes of `buffer`.
    private func changedPaths(in buffer: [UInt8], count: Int) -> Set<String> {
        var paths = Set<String>()
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        buffer.withUnsafeBytes { bytes in
            while offset + header <= count {
                let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let nameLength = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameStart = offset + header
                guard nameStart + nameLength <= count else { break }
                let nameBytes = bytes[nameStart..<(nameStart + nameLength)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if let place = watched[watch], place.names.contains(name) {
                    paths.insert(place.folder + "/" + name)
                }
                offset = nameStart + nameLength
            }
        }
        return paths
    }
}

/// The size and modification time of each library file as last read.
private final class FileStamps: @unchecked Sendable {
    private let lock = NSLock()
    private let paths: [String]
    private var stamps: [String: [Int64]] = [:]

    init(paths: [String]) {
        self.paths = paths
        record()
    }

    func record() {
        let now = Dictionary(uniqueKeysWithValues: paths.map { ($0, Self.stamp(of: $0)) })
        lock.withLock { stamps = now }
    }

    /// Records the file at `path` as it is now, if its size and time are `stamp`'s.
    func record(_ path: String, ifStill stamp: LoadedFileStamp) {
        let now = Self.stamp(of: path)
        guard now.count == 4, now[0] == stamp.size, now[1] == stamp.modifiedSeconds, now[2] == stamp.modifiedNanoseconds else { return }
        lock.withLock { stamps[path] = now }
    }

    /// The paths among `paths` whose size or modification time is not as recorded.
    func changed(among paths: [String]) -> [String] {
        lock.withLock { paths.filter { stamps[$0] != Self.stamp(of: $0) } }
    }

    private static func stamp(of path: String) -> [Int64] {
        var status = stat()
        guard stat(path, &status) == 0 else { return [] }
        return [Int64(status.st_size), Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec), Int64(status.st_ino)]
    }
}
