import Foundation

/// Why a library file was not written, or an edit not undone. In every case the file is as it
/// was: nothing was written.
public enum LibraryWriteError: Error, Equatable, CustomStringConvertible {
    /// The file cannot be read (missing, not a regular file, no permission): the system's reason.
    case unreadable(path: String, reason: String)
    /// The file's folder does not let a new file be made in it (read-only, no permission), and
    /// a file is replaced by making its new version beside it.
    case folderNotWritable(path: String, folder: String, reason: String)
    /// Writing the new version failed (a full disk, an I/O error).
    case writeFailed(path: String, reason: String)
    /// The new version read back from the disk is not what was written.
    case readBackDiffers(path: String)
    /// The previous version could not be kept under the state folder, so the edit was not made.
    case historyNotKept(path: String, folder: String, reason: String)
    /// Another writer's lock could not be taken or waited for.
    case lockFailed(path: String, reason: String)
    /// No edit of this file by bibread is kept.
    case nothingToUndo(path: String)
    /// The file is not what bibread's last edit wrote: someone else changed it since. `edit` is
    /// that edit; `after` the file as the edit left it, `now` as it is.
    case changedSinceEdit(path: String, edit: WriteHistoryEntry, now: LoadedFileStamp)
    /// The kept copy of the version before the edit is missing or damaged.
    case keptCopyDamaged(path: String, copy: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            "cannot read \(path): \(reason)"
        case let .folderNotWritable(path, folder, reason):
            "cannot write \(path): its folder \(folder) does not let bibread make the new version beside it (\(reason)); nothing was written"
        case let .writeFailed(path, reason):
            "cannot write \(path): \(reason); the file is as it was"
        case let .readBackDiffers(path):
            "cannot write \(path): the new version read back from the disk differs from what was written; the file is as it was"
        case let .historyNotKept(path, folder, reason):
            "cannot keep the previous version of \(path) in \(folder) (\(reason)), so it was not changed"
        case let .lockFailed(path, reason):
            "cannot lock \(path) against other writers: \(reason); nothing was written"
        case let .nothingToUndo(path):
            "nothing to undo in \(path): bibread keeps no edit of it"
        case let .changedSinceEdit(path, edit, now):
            "\(path) was changed since bibread's last edit of it ('\(edit.command)', \(Self.timeText(edit.date))): "
                + "that edit left \(edit.afterSize) bytes, the file now has \(now.size) bytes, modified at \(now.modifiedText); "
                + "it was not undone, so that the other change is kept"
        case let .keptCopyDamaged(path, copy):
            "cannot undo the last edit of \(path): the copy of the version before it (\(copy)) is missing or damaged; the file is as it was"
        }
    }

    /// A time as local time, `2026-11-27 01:22:10`.
    static func timeText(_ seconds: Double) -> String {
        LocalTimeText.of(seconds)
    }
}
