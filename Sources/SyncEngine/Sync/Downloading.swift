import Foundation

/// What carries a sync's downloads: ``CurlSession`` for every remote that libcurl reaches, and a
/// transport that fetches through a program of its own (``RcloneTransport``). The contract is
/// ``CurlSession/download(_:parallel:progress:isCancelled:finished:)``'s: one outcome per job,
/// in order; a job's `resumeFrom` continues its destination file; what a failed or cancelled job
/// wrote stays on disk, to resume from.
public protocol Downloading {
    /// Downloads `jobs` into their destination files, at most `parallel` at a time, on the
    /// calling thread; calls `progress(jobIndex, bytesOnDisk, expectedTotal)` as data arrives,
    /// polls `isCancelled`, and calls `finished(jobIndex, outcome)` as soon as each job ends.
    func download(_ jobs: [DownloadJob], parallel: Int,
                  progress: (Int, Int64, Int64?) -> Void,
                  isCancelled: () -> Bool,
                  finished: (Int, DownloadOutcome) -> Void) -> [DownloadOutcome]
}

extension CurlSession: Downloading {}
