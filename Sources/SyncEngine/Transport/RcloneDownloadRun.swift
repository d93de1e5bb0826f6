import Foundation

/// A run of rclone carrying some of the jobs.
protocol RcloneDownloadRun: AnyObject {
    /// Reports progress and the jobs that ended since the last call; true once the run is over
    /// (every job it carries has ended).
    func poll(progress: (Int, Int64) -> Void, ended: (Int, DownloadOutcome) -> Void) -> Bool
    /// Ends the run now; its jobs that had not ended are cancelled, what arrived kept to resume from.
    func cancel(ended: (Int, DownloadOutcome) -> Void)
}
