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
    /// what happened through `notice`. A file that cannot be pushed keeps its edits pending
    /// (and its copy here).
    func run(notice: (String) -> Void) throws -> (pushed: Int, conflicts: Int, failed: [String]) {
        var journal = try locations.existingJournal()
        let pending = Dictionary(grouping: try journal?.pending() ?? [], by: \.file)
        var result = (pushed: 0, conflicts: 0, failed: [String]())
        for file in Set(pending.keys).union(changedOutside()).sorted() {
            do {
                if journal == nil { journal = try EditJournal(url: locations.journal) }
                guard let journal else { continue }
                let pushed = try push(file, edits: pending[file] ?? [], journal: journal, notice: notice)
                result.pushed += pushed.edits
                result.conflicts += pushed.conflicts
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
        let root = locations.library.standardizedFileURL.path + "/"
        return locations.libraryFiles.compactMap { path in
            let standard = URL(fileURLWithPath: path).standardizedFileURL.path
            guard standard.hasPrefix(root) else { return nil }
            let file = String(standard.dropFirst(root.count))
            guard let base = locations.baseCopy(of: file), let here = try? Data(contentsOf: URL(fileURLWithPath: path)),
                  !here.elementsEqual(base.contents) else { return nil }
            return file
        }
    }

    /// Pushes one file; returns how many edits it pushed and how many conflicts its merge found.
    private func push(_ file: String, edits: [JournalEdit], journal: EditJournal,
                      notice: (String) -> Void) throws -> (edits: Int, conflicts: Int) {
        let local = try RemotePath.local(file, under: locations.library)
        let mine = Array(try Data(contentsOf: local))
        let base = locations.baseCopy(of: file)
        for _ in 0..<attempts {
            guard let theirs = try transport.download(file) else {
                throw LibraryPushError("the remote has no \(file) any more")
            }
            var merged = mine
            var conflicts: [MergeConflict] = []
            if theirs.version != base?.version || base == nil {
                (merged, conflicts) = try merge(mine: mine, theirs: theirs.contents, base: base?.contents, file: file)
            }
            do {
                _ = try locations.baseCopies.upload(merged, to: file, replacing: theirs.version, through: transport)
            } catch TransportError.remoteChanged {
                continue
            }
            // The copy here becomes what the remote now holds, unless it changed meanwhile (an
            // edit made during the push: it stays, pending, for the next sync).
            if merged != mine, Array((try? Data(contentsOf: local)) ?? Data()) == mine {
                try AtomicFile.write(Data(merged), to: local)
            }
            try journal.finishPush(of: edits.map(\.id), conflicts: conflicts, file: file, at: Date().timeIntervalSince1970)
            let count = Set(edits.map { "\($0.address.text)\u{0}\($0.madeAt)" }).count
            let merge = theirs.version == base?.version ? "" : ", merged with the remote's changes"
            let conflictText = conflicts.isEmpty ? "" : "; \(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s") kept the remote's value (bibread conflicts)"
            let what = count == 0 ? "the changes made to the copy here outside bibread" : "\(count) edit\(count == 1 ? "" : "s") made here"
            notice("\(file): pushed \(what)\(merge)\(conflictText)")
            return (count, conflicts.count)
        }
        throw LibraryPushError("the remote's \(file) kept changing while the edits were merged into it (\(attempts) times)")
    }

    /// This machine's changes since `base` made to the remote's `theirs` (nil base: both kept
    /// where they differ, as conflicts), and the conflicts (`LibraryMerge`).
    private func merge(mine: [UInt8], theirs: [UInt8], base: [UInt8]?, file: String) throws -> ([UInt8], [MergeConflict]) {
        let merge = try LibraryMerge.merge(mine: mine, theirs: theirs, base: base, path: file, at: Date())
        return (merge.bytes, merge.conflicts)
    }
}

/// Why the edits of a file could not be pushed.
struct LibraryPushError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
