import BibreadServices
import BibreadValues
import Foundation
import SyncEngine

/// Shows a sync as it goes: a progress bar on a terminal, plain lines otherwise, or one JSON
/// object per event (`--json`, on standard output).
final class SyncReporter {
    private let json: Bool
    private let terminal: Bool
    private var barShown = false

    init(json: Bool, terminal: Bool) {
        self.json = json
        self.terminal = terminal
    }

    func report(_ event: SyncEvent) {
        if json {
            Console.print(Self.json(event))
            return
        }
        switch event {
        case .library(let file, let outcome):
            finishLine()
            switch outcome {
            case .updated(let entries): Console.error("\(file): updated (\(entries) references)")
            case .unchanged: Console.error("\(file): up to date")
            case .wouldUpdate: Console.error("\(file): would be updated")
            case .wouldBeRejected(let reason): Console.error("\(file): would NOT be replaced: \(reason)")
            case .rejected(let reason, let kept): Console.error("\(file): NOT replaced: \(reason); the download is kept at \(kept)")
            }
        case .planned(let files, let bytes, let current):
            finishLine()
            Console.error("PDFs: \(files) to download (\(ByteCount.format(bytes))), \(current) already in the cache")
        case .fileStarted:
            break
        case .progress(let progress):
            guard terminal else { return }
            let fraction = progress.totalBytes > 0 ? min(1, Double(progress.doneBytes) / Double(progress.totalBytes)) : 0
            let width = 24
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            let remaining = max(0, progress.totalBytes - progress.doneBytes)
            let name = (progress.path as NSString).lastPathComponent
            let line = "\(bar) \(Int(fraction * 100))%  \(ByteCount.format(remaining)) left  \(ByteCount.format(Int64(progress.rate)))/s  \(name)"
            Console.progressLine(String(line.prefix(max(20, Console.errorWidth - 1))))
            barShown = true
        case .fileFinished(let path, let bytes):
            if !terminal { Console.error("downloaded \(path) (\(ByteCount.format(bytes)))") }
        case .fileFailed(let path, let reason, let retrying):
            finishLine()
            Console.error("\(path): \(reason)\(retrying ? "; trying again" : "")")
        case .notice(let text):
            finishLine()
            Console.error(text)
        case .waiting(let remote, let holder):
            finishLine()
            Console.error("Another sync of '\(remote)' is running (\(holder)); waiting for it to end (Ctrl-C stops waiting)")
        case .finished(let summary):
            finishLine()
            // A sync stopped by what it was asked for says only why (the command prints it).
            guard !summary.stoppedBeforeChoosing else { return }
            Console.error(Self.lastLine(summary))
        }
    }

    /// The line that ends a sync: what it did, or for a dry run what a sync would do and that
    /// nothing changed.
    static func lastLine(_ summary: SyncSummary) -> String {
        var rest = ["\(summary.current) already current"]
        if !summary.failed.isEmpty { rest.append("\(summary.failed.count) failed") }
        if !summary.missing.isEmpty { rest.append("\(summary.missing.count) not on the remote") }
        if summary.dryRun {
            let files = "\(summary.wouldDownload) PDF\(summary.wouldDownload == 1 ? "" : "s")"
            let would = "\(files) would be downloaded (\(ByteCount.format(summary.wouldDownloadBytes)))"
            return "Dry run: \(([would] + rest).joined(separator: ", ")); nothing was changed"
        }
        let parts = ["\(summary.downloaded) downloaded (\(ByteCount.format(summary.downloadedBytes)))"] + rest
        return "\(summary.cancelled ? "Cancelled" : "Done"): \(parts.joined(separator: ", ")) in \(String(format: "%.1f", summary.seconds)) s\(summary.cancelled ? "; the next sync resumes" : "")"
    }

    /// Ends a progress bar line before other output.
    func finishLine() {
        if barShown {
            Console.clearProgressLine()
            barShown = false
        }
    }

    static func json(_ event: SyncEvent) -> String {
        var object: [String: Any]
        switch event {
        case .library(let file, let outcome):
            object = ["event": "library", "file": file]
            switch outcome {
            case .updated(let entries): object["outcome"] = "updated"; object["references"] = entries
            case .unchanged: object["outcome"] = "unchanged"
            case .wouldUpdate: object["outcome"] = "would-update"
            case .wouldBeRejected(let reason): object["outcome"] = "would-reject"; object["reason"] = reason
            case .rejected(let reason, let kept): object["outcome"] = "rejected"; object["reason"] = reason; object["keptAt"] = kept
            }
        case .planned(let files, let bytes, let current):
            object = ["event": "planned", "files": files, "bytes": bytes, "current": current]
        case .fileStarted(let path, let bytes):
            object = ["event": "file-started", "path": path]
            if let bytes { object["bytes"] = bytes }
        case .progress(let progress):
            object = ["event": "progress", "path": progress.path, "fileBytes": progress.fileBytes, "doneBytes": progress.doneBytes,
                      "totalBytes": progress.totalBytes, "bytesPerSecond": Int(progress.rate)]
            if let total = progress.fileTotal { object["fileTotal"] = total }
        case .fileFinished(let path, let bytes):
            object = ["event": "file-finished", "path": path, "bytes": bytes]
        case .fileFailed(let path, let reason, let retrying):
            object = ["event": "file-failed", "path": path, "reason": reason, "retrying": retrying]
        case .notice(let text):
            object = ["event": "notice", "message": text]
        case .waiting(let remote, let holder):
            object = ["event": "waiting", "remote": remote]
            if let pid = holder.pid { object["pid"] = Int(pid) }
            if let command = holder.command { object["command"] = command }
        case .finished(let summary):
            object = ["event": "finished", "downloaded": summary.downloaded, "downloadedBytes": summary.downloadedBytes,
                      "current": summary.current, "failed": summary.failed, "missing": summary.missing, "problems": summary.problems,
                      "cancelled": summary.cancelled, "seconds": summary.seconds, "rejected": summary.rejectedLibraries,
                      "dryRun": summary.dryRun]
            if summary.dryRun {
                object["wouldDownload"] = summary.wouldDownload
                object["wouldDownloadBytes"] = summary.wouldDownloadBytes
            }
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return "{}" }
        return escapingDELAndC1(String(decoding: data, as: UTF8.self))
    }

    /// JSON text with DEL and the C1 controls escaped (`\u009b`) as well: JSONSerialization
    /// escapes only those below U+0020, and bibread's JSON holds no control character raw.
    /// (Outside strings JSON holds none at all, so each one found is inside a string.)
    static func escapingDELAndC1(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { (0x7F...0x9F).contains($0.value) }) else { return json }
        var escaped = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if (0x7F...0x9F).contains(scalar.value) {
                escaped.append(contentsOf: String(format: "\\u%04x", scalar.value).unicodeScalars)
            } else {
                escaped.append(scalar)
            }
        }
        return String(escaped)
    }
}
