import BibModel
import DiskIO
import Foundation

/// Puts the edits made here to a synced library's files on the remote, and nothing is lost:
/// when the remote is still the version the copy here was based on, the copy is uploaded over it
/// (a conditional write); when someone changed it meanwhile, the two are merged reference by
/// reference and field by field against the last synced copy (`ThreeWayMerge`), the merge is
/// uploaded over the version it was made with, and again if the remote changed once more (a few
/// times). A field both changed differently keeps the remote's value in the file and this
/// machine's in the journal, as a conflict. The copy here becomes the merged file.
struct LibraryPush {
    let locations: RemoteLocations
    let transport: any UploadingTransport
    /// How many times a merge is made again because the remote changed while it was made.
    var attempts = 3

    /// Pushes every file with edits pending in the journal, and every file whose copy here
    /// differs from the last synced copy (another program wrote it: an editor, JabRef); says
    /// what happened through `notice`, and gives the version each pushed file now has. A file that cannot be pushed keeps its edits pending
    /// (and its copy here).
    func run(notice: (String) -> Void) throws -> (pushed: Int, conflicts: Int, failed: [String], versions: [String: RemoteVersion]) {
        var journal = try locations.existingJournal()
        let pending = Set(try journal?.pending().map(\.file) ?? [])
        var result = (pushed: 0, conflicts: 0, failed: [String](), versions: [String: RemoteVersion]())
        for file in pending.union(changedOutside()).sorted() {
            do {
                if journal == nil { journal = try EditJournal(url: locations.journal) }
                guard let journal else { continue }
                let pushed = try push(file, journal: journal, notice: notice)
                result.pushed += pushed.edits
                result.conflicts += pushed.conflicts
                result.versions[file] = pushed.version
            } catch {
                notice("\(file): the edits made here were not pushed: \(ErrorText.plain(error)); they stay, and the next sync tries again")
                result.failed.append(file)
            }
        }
        return result
    }

    /// The remote paths of the .bib files whose copy here is not the last synced copy: changed
    /// outside bibread (a file without a synced copy is left to the journal).
    func changedOutside() -> [String] {
        locations.libraryFiles.compactMap { path in
            guard let file = locations.remotePath(ofLocal: path), let base = locations.baseCopy(of: file),
                  let here = try? Data(contentsOf: URL(fileURLWithPath: path)), !here.elementsEqual(base.contents) else { return nil }
            return file
        }
    }

    /// Pushes one file; returns how many edits it pushed and how many conflicts its merge found.
    ///
    /// It holds the file's write lock from reading the copy here and its pending edits to
    /// replacing the copy and noting the edits pushed: an edit (which takes the same lock, and
    /// records itself in the journal under it) waits, and is made on the merged file after.
    private func push(_ file: String, journal: EditJournal,
                      notice: (String) -> Void) throws -> (edits: Int, conflicts: Int, version: RemoteVersion) {
        let local = try RemotePath.local(file, under: locations.library)
        let lock = try locations.lockCopy(local)
        defer { lock?.release() }
        let edits = try journal.pending(file: file)
        let mine = Array(try Data(contentsOf: local))
        let copies = locations.baseCopies
        // First, with no download, the copy here over the last synced copy's version: when the
        // remote is still that version (the usual case) this one conditional upload is the whole
        // push; when it is not, the upload is refused, and the remote's version is fetched and
        // merged (again, a few times, while it keeps changing).
        // (Not when an upload was noted and not known to have landed: the remote's version is
        // fetched first, to see whether it is that upload.)
        var known = copies.hasNotedUpload(to: file) ? nil : copies.copy(of: file)
        // What the copy here holds as far as this push knows (it writes the merge there).
        var written = mine
        for _ in 0...attempts {
            var merged = mine
            var conflicts: [MergeConflict] = []
            let expected: RemoteVersion
            var merging = false
            if let base = known {
                expected = base.version
                known = nil
            } else {
                guard let theirs = try transport.download(file) else {
                    throw LibraryPushError("the remote has no \(file) any more")
                }
                // A push killed after its upload landed, before it kept the version, left the
                // remote holding exactly the bytes it noted: they are the last synced copy (else
                // this machine's own push would look like another machine's change, and conflict).
                let base = try copies.adoptedCopy(of: file, remote: theirs)
                if theirs.version != base?.version || base == nil {
                    (merged, conflicts) = try merge(mine: mine, theirs: theirs.contents, base: base?.contents, file: file,
                                                    ownUpload: copies.notedUpload(to: file))
                    merging = true
                }
                expected = theirs.version
            }
            // Before the upload: the bytes it sends are noted, and the copy here becomes them.
            // So whatever a kill interrupts, the copy here holds the remote's changes merged
            // and is what the base will be (noted, adopted by the next push if the upload
            // landed), never an older copy that a later push would take for undoing them.
            // Another program (which takes no lock) may have changed the copy meanwhile: its
            // changes are merged onto the new copy, which, not the last synced one, the next
            // sync pushes.
            try copies.noteUpload(merged, to: file)
            // The values that lost a conflict are kept in the journal before the copy here
            // loses them.
            if !conflicts.isEmpty {
                try journal.finishPush(of: [], conflicts: conflicts, file: file, at: Date().timeIntervalSince1970)
            }
            let now = Array(try Data(contentsOf: local))
            if now != written {
                let (folded, more) = try merge(mine: now, theirs: merged, base: written, file: file)
                if !more.isEmpty {
                    try journal.finishPush(of: [], conflicts: more, file: file, at: Date().timeIntervalSince1970)
                }
                try AtomicFile.write(Data(folded), to: local)
                conflicts += more
                written = folded
            } else if merged != written {
                try AtomicFile.write(Data(merged), to: local)
                written = merged
            }
            let version: RemoteVersion
            do {
                version = try transport.upload(merged, to: file, replacing: expected)
            } catch TransportError.remoteChanged {
                copies.forgetUpload(to: file)
                continue
            }
            // Then the last synced copy, and then the edits are pushed: a kill before this leaves
            // them pending, and the next push puts the same values again, which changes nothing.
            try copies.save(VersionedContents(contents: merged, version: version), of: file)
            copies.forgetUpload(to: file)
            try journal.finishPush(of: edits.map(\.id), conflicts: [], file: file, at: Date().timeIntervalSince1970)
            let count = Set(edits.map { "\($0.address.text)\u{0}\($0.madeAt)" }).count
            let merge = merging ? ", merged with the remote's changes" : ""
            let conflictText = conflicts.isEmpty ? "" : "; \(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s") kept the remote's value (bibread conflicts)"
            let what = count == 0 ? "the changes made to the copy here outside bibread" : "\(count) edit\(count == 1 ? "" : "s") made here"
            notice("\(file): pushed \(what)\(merge)\(conflictText)")
            return (count, conflicts.count, version)
        }
        throw LibraryPushError("the remote's \(file) kept changing while the edits were merged into it (\(attempts) times)")
    }

    /// This machine's changes since `base` made to the remote's `theirs` (nil base: both kept
    /// where they differ, as conflicts), and the conflicts (`LibraryMerge`).
    ///
    /// `ownUpload`: bytes this machine uploaded without keeping them as the base (a push killed
    /// after its upload landed, and another machine's change on top since): see `LibraryMerge`.
    private func merge(mine: [UInt8], theirs: [UInt8], base: [UInt8]?, file: String,
                       ownUpload: [UInt8]? = nil) throws -> ([UInt8], [MergeConflict]) {
        let merge = try LibraryMerge.merge(mine: mine, theirs: theirs, base: base, path: file, at: Date(), ownUpload: ownUpload)
        return (merge.bytes, merge.conflicts)
    }
}

/// Why the edits of a file could not be pushed.
struct LibraryPushError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
