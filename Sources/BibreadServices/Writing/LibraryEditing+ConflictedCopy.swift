import BibModel
import Foundation
import SyncEngine

/// Folding a sync client's conflicted copy of a library file (Dropbox's `library (Jane's
/// conflicted copy 2024-03-01).bib`, Nextcloud's, Syncthing's) back into the library: what the
/// copy changed is merged reference by reference and field by field (`LibraryMerge`), against
/// the last synced copy when bibread syncs the library (a three-way merge), else keeping both
/// values of every field that differs (the library's in the file, the copy's as a conflict).
/// The merge is written like any edit (checked, atomic, undoable); the conflicts go to the
/// library's journal (`bibread conflicts`); the copy is moved under the state folder, so that
/// nothing is lost and the folder is clean.
extension LibraryEditing {
    /// Merges the copy at `copyPath` into the library file at `path`; with `dryRun`, says what
    /// the merge would do and changes nothing.
    public func mergeConflictedCopy(_ copyPath: String, into path: String, dryRun: Bool = false) throws -> ConflictedCopyMergeOutcome {
        let copy = Array(try Data(contentsOf: URL(fileURLWithPath: copyPath)))
        let copyLibrary = Library.parse([(path: copyPath, bytes: copy)])
        if let error = copyLibrary.diagnostics.first(where: { $0.severity == .error }) {
            throw EditError(.unreadableEntry, "\(error.path):\(error.location): \(error.message); the copy was not merged (fix it, or merge it by hand)")
        }
        let base = baseCopy(of: path)
        let date = clock()
        let (loaded, stamp) = try LoadedFileStamp.read(path)
        if dryRun {
            let merge = try LibraryMerge.merge(mine: copy, theirs: loaded, base: base, path: path, at: date)
            return ConflictedCopyMergeOutcome(merge: merge, hadBase: base != nil, movedCopy: nil)
        }
        var result: LibraryMerge.Result?
        _ = try writer.write(path: path, loaded: stamp, command: "merge-conflicted \((copyPath as NSString).lastPathComponent)",
                             transform: { current in
            let merge = try LibraryMerge.merge(mine: copy, theirs: current, base: base, path: path, at: date)
            result = merge
            return merge.bytes
        }, check: { _, _ in })
        guard let result else { throw EditError(.checkFailed, "\(path): the merge gave no result") }
        if !result.conflicts.isEmpty {
            let (journal, file) = try ConflictJournal.forLibrary(at: path, environment: environment)
            try journal.journal.finishPush(of: [], conflicts: result.conflicts, file: file, at: date.timeIntervalSince1970)
        }
        let moved = try moveAside(copyPath, at: date)
        return ConflictedCopyMergeOutcome(merge: result, hadBase: base != nil, movedCopy: moved)
    }

    /// The last synced copy of a synced library's file, when there is one.
    private func baseCopy(of path: String) -> [UInt8]? {
        guard let (locations, file) = RemoteLocations.owningFile(path, environment: environment) else { return nil }
        return locations.baseCopy(of: file)?.contents
    }

    /// Moves the merged copy to `$XDG_STATE_HOME/bibread/merged-copies/`, named with the time.
    private func moveAside(_ copyPath: String, at date: Date) throws -> String {
        let folder = Directories(environment: environment).state.appendingPathComponent("merged-copies")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let stamp = Int(date.timeIntervalSince1970)
        let target = folder.appendingPathComponent("\(stamp)-\((copyPath as NSString).lastPathComponent)")
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.moveItem(at: URL(fileURLWithPath: copyPath), to: target)
        return target.path
    }
}
