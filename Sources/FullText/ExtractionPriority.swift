import Foundation
import PDFText
#if canImport(Glibc)
import Glibc
#endif

/// How the threads that extract text are scheduled beside the rest of the process.
public enum ExtractionPriority: Sendable, Equatable {
    /// Like any thread: for a command that only indexes, or a benchmark.
    case normal
    /// Niced (+10 on Linux), so that a reader indexing in the background stays quick to answer
    /// keys: the threads still take every idle cycle.
    case background

    /// Applies the priority to the calling thread.
    func apply() {
        guard self == .background else { return }
        #if os(Linux)
        // On Linux the nice value belongs to the thread: `who` 0 is the calling thread.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #else
        Thread.current.qualityOfService = .utility
        #endif
    }
}
