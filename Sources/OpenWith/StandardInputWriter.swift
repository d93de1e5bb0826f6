import DiskIO
import Foundation
import Glibc

/// Writes a child's standard input on a thread of its own, then closes the pipe.
enum StandardInputWriter {
    static func start(writing bytes: [UInt8], to descriptor: Int32) {
        let thread = Thread {
            // SIGPIPE (the program ended without reading everything) stays pending on this
            // thread instead of ending bibread; write then fails with EPIPE and the pending
            // signal is taken back.
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            do throws(SystemCallError) {
                try FileDescriptor.writeAll(bytes, to: descriptor)
            } catch {
                if error.code == EPIPE {
                    var noWait = timespec(tv_sec: 0, tv_nsec: 0)
                    _ = sigtimedwait(&pipeSignal, nil, &noWait)
                }
            }
            close(descriptor)
        }
        thread.name = "bibread-stdin"
        thread.stackSize = 128 * 1024
        thread.start()
    }
}
