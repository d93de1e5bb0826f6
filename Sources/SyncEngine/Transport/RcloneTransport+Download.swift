import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A sync's downloads over rclone. Files that start from nothing go in one `rclone copy
/// --files-from-raw` (``RcloneBatchDownload``: one program for all, `parallel` transfers, each
/// file put in its `.part` as soon as rclone says it is copied); a file that resumes a `.part`
/// comes through `rclone cat --offset N` (``RcloneFileDownload``), at most `parallel` at a time.
/// A cancel ends every run (SIGKILL) and leaves what arrived in the `.part` files, to resume from.
extension RcloneTransport: Downloading {
    public func download(_ jobs: [DownloadJob], parallel: Int,
                         progress: (Int, Int64, Int64?) -> Void,
                         isCancelled: () -> Bool,
                         finished: (Int, DownloadOutcome) -> Void) -> [DownloadOutcome] {
        var outcomes = [DownloadOutcome?](repeating: nil, count: jobs.count)
        func end(_ index: Int, _ outcome: DownloadOutcome) {
            guard outcomes[index] == nil else { return }
            outcomes[index] = outcome
            finished(index, outcome)
        }
        // Fresh files together (a name with a line break cannot be in rclone's list of names).
        let fresh = jobs.indices.filter { jobs[$0].request.resumeFrom == 0 && !jobs[$0].request.url.contains(where: \.isNewline) }
        var singles = jobs.indices.filter { !fresh.contains($0) }
        var runs: [any RcloneDownloadRun] = []
        if fresh.count >= 2 {
            do {
                runs.append(try RcloneBatchDownload(jobs, fresh, location: location, program: program, parallel: parallel))
            } catch {
                singles = jobs.indices.sorted()
            }
        } else {
            singles = jobs.indices.sorted()
        }
        var next = 0
        while next < singles.count || !runs.isEmpty {
            if isCancelled() {
                runs.forEach { $0.cancel(ended: end) }
                for index in jobs.indices { end(index, .cancelled) }
                break
            }
            while runs.filter({ $0 is RcloneFileDownload }).count < max(1, parallel) && next < singles.count {
                let index = singles[next]
                do {
                    runs.append(try RcloneFileDownload(jobs[index], index: index, program: program))
                } catch {
                    end(index, .failed(error as? TransferFailure ?? .write(path: jobs[index].destination.path, reason: "\(error)")))
                }
                next += 1
            }
            usleep(20_000)
            runs.removeAll { $0.poll(progress: { progress($0, $1, nil) }, ended: end) }
        }
        return outcomes.map { $0 ?? .cancelled }
    }
}
