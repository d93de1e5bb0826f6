import Glibc

/// glibc functions and flags that Swift's Glibc module does not import (they are behind
/// `_GNU_SOURCE`), looked up at run time so that an older C library simply goes without them.
enum GNUExtensions {
    /// `POSIX_SPAWN_SETSID` from glibc's `<spawn.h>` (glibc 2.26 and later): the child starts a
    /// new session.
    static let spawnSetSessionFlag: Int32 = 0x80

    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    nonisolated(unsafe) private static let process = dlopen(nil, RTLD_NOW)

    private static let pipe2: Pipe2? = dlsym(process, "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }

    private static let addCloseFrom: AddCloseFrom? =
        dlsym(process, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: AddCloseFrom.self) }

    /// A pipe whose two ends are closed on exec (atomically with `pipe2` where there is one, so
    /// a program started meanwhile by another thread cannot inherit the write end).
    static func closeOnExecPipe() throws(LaunchError) -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [-1, -1]
        if let pipe2 {
            guard pipe2(&descriptors, O_CLOEXEC) == 0 else { throw .systemCall("pipe2", code: errno) }
        } else {
            guard pipe(&descriptors) == 0 else { throw .systemCall("pipe", code: errno) }
            for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        }
        return (descriptors[0], descriptors[1])
    }

    /// Asks the spawn to close every descriptor from `lowest` up (glibc 2.34 and later); false
    /// when the C library cannot.
    @discardableResult
    static func closeDescriptors(from lowest: Int32, in actions: inout posix_spawn_file_actions_t) -> Bool {
        guard let addCloseFrom else { return false }
        return addCloseFrom(&actions, lowest) == 0
    }
}
