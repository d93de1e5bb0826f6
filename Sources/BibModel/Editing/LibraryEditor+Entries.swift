import Foundation

/// Whole references put into a file or taken out of it, byte-preserving like every other edit:
/// an inserted entry's text is written as given (in the file's encoding and line endings), with
/// the blank-line separation the file's entries already have; a removed entry takes its bytes
/// and the white space before it (the blank line that separated it), nothing else. Every other
/// byte of the file is as it was, and `EditCheck.verify` checks it.
extension LibraryEditor {
    /// The text of `entry` as its file holds it (decoded to UTF-8), from its `@` to its closing
    /// delimiter; nil when the entry does not read cleanly (see `bibread check`). This is what
    /// ``insertEntry(_:after:)`` takes to copy a reference from one file to another.
    public static func text(of entry: Entry) -> String? {
        let text = entry.source.bytes
        guard let layout = EntryLayout.scan(text, at: entry.offset), layout.end <= text.count else { return nil }
        return String(decoding: text[layout.entryStart..<layout.end], as: UTF8.self)
    }

    /// Puts a whole entry into the file: `text` (one entry, `@type{key, …}`, as
    /// ``text(of:)`` gives it, in any line endings) is written byte for byte but for its line
    /// endings, which become the file's, and its encoding, which becomes the file's. It goes
    /// right after the entry at `neighbour` when that is an entry of this file, else after the
    /// file's last entry (so before the group comments at the end), else at the end, and never
    /// before an `@string` (one the entry uses must come before it); it is
    /// separated from the entry before it as the file's last two entries are (a blank line when
    /// the file does not say).
    ///
    /// Throws `.invalidValue` when `text` is not exactly one entry that reads without errors,
    /// `.unencodable` when the file's encoding cannot hold it, `.readOnly` for a Zotero export.
    public func insertEntry(_ text: String, after neighbour: EntryAddress? = nil) throws(EditError) -> EditResult {
        try refuseReadOnly()
        let ending = fileLineEnding
        let normalised = Self.withLineEnding(text.trimmingCharacters(in: .whitespacesAndNewlines), ending)
        let parsed = try Self.singleEntry(normalised, path: file.source.path)
        let bytes = file.source.bytes
        let own = library.entries.filter { $0.source === file.source }
        // Never before an `@string` the entry could use: after the neighbour when none follows
        // it, else after the last entry when none follows that, else at the end.
        let anchor = [neighbour.flatMap { address in own.first { $0.entryAddress == address } }, own.last]
            .compactMap { $0 }.first { !Self.hasStringBlock(in: bytes, after: $0.offset) }
        let splice: Splice
        if let anchor {
            guard let layout = EntryLayout.scan(bytes, at: anchor.offset) else {
                throw EditError(.unreadableEntry, "@\(anchor.type){\(anchor.key) at \(file.source.path):\(anchor.line) does not read cleanly as BibTeX, so nothing is put after it (see `bibread check`)")
            }
            splice = Splice(range: layout.end..<layout.end, text: separation(own, ending: ending) + normalised)
        } else {
            let endsInLine = bytes.last == 0x0A
            let lead = bytes.isEmpty ? "" : (endsInLine ? "" : ending) + ending
            splice = Splice(range: bytes.count..<bytes.count, text: lead + normalised + ending)
        }
        let position = splice.range.lowerBound
        let index = own.filter { $0.offset < position }.count
        let fileIndex = library.files.firstIndex { $0.source === file.source } ?? 0
        let folded = CiteKey(parsed.key).folded
        let before = library.entries.filter { other in
            guard other.citeKey.folded == folded else { return false }
            let otherFile = library.files.firstIndex { $0.source === other.source } ?? 0
            return otherFile < fileIndex || (otherFile == fileIndex && other.offset < position)
        }.count
        let address = EntryAddress(before == 0 ? parsed.key : "\(parsed.key)#\(before + 1)")
        return try assemble([splice], address: address, entryIndex: index, edits: [], changes: [], group: nil,
                            wholeEntry: .inserted(text: normalised))
    }

    /// Takes the entry at `address` out of the file: its bytes, and the white space between it
    /// and what comes before it (for the file's first entry, the white space after it instead).
    /// Comments, `@string`s and other entries keep every byte, a static group listing its key
    /// included.
    ///
    /// Throws `.unknownEntry`, `.unreadableEntry` (its text does not read cleanly), `.readOnly`.
    public func removeEntry(at address: EntryAddress) throws(EditError) -> EditResult {
        try refuseReadOnly()
        guard let entry = library.entry(at: address), entry.source === file.source else {
            throw EditError(.unknownEntry, "no entry '\(address.text)' in \(file.source.path)")
        }
        let bytes = file.source.bytes
        guard let layout = EntryLayout.scan(bytes, at: entry.offset), EntryDraft.matches(layout, entry) else {
            throw EditError(.unreadableEntry, "@\(entry.type){\(entry.key) at \(file.source.path):\(entry.line) cannot be removed: its text does not read cleanly as BibTeX (see `bibread check`)")
        }
        var start = layout.entryStart
        while start > 0, Self.isBlank(bytes[start - 1]) { start -= 1 }
        var end = layout.end
        if start == 0 {
            start = layout.entryStart
            while end < bytes.count, Self.isBlank(bytes[end]) { end += 1 }
        }
        let index = library.entries.filter { $0.source === file.source && $0.offset < entry.offset }.count
        return try assemble([Splice(range: start..<end, text: "")], address: address, entryIndex: index, edits: [], changes: [],
                            group: nil, wholeEntry: .removed)
    }

    // MARK: - Parts

    private func refuseReadOnly() throws(EditError) {
        if conventions.dialect == .zotero {
            throw EditError(.readOnly, "\(file.source.path) is a Zotero export (\(conventions.evidence ?? "Better BibTeX")): Zotero writes it again on every export, so a change here would be lost; change the reference in Zotero instead")
        }
    }

    /// The file's line ending: that of its first line break (`\n` when it has none).
    private var fileLineEnding: String {
        let bytes = file.source.bytes
        guard let newline = bytes.firstIndex(of: 0x0A) else { return "\n" }
        return newline > 0 && bytes[newline - 1] == 0x0D ? "\r\n" : "\n"
    }

    /// What separates the file's last two entries when it is white space holding a line break,
    /// else a blank line.
    private func separation(_ entries: [Entry], ending: String) -> String {
        let bytes = file.source.bytes
        if entries.count >= 2, let previous = EntryLayout.scan(bytes, at: entries[entries.count - 2].offset) {
            let gap = bytes[min(previous.end, entries[entries.count - 1].offset)..<entries[entries.count - 1].offset]
            if gap.contains(0x0A), gap.allSatisfy(Self.isBlank) { return String(decoding: gap, as: UTF8.self) }
        }
        return ending + ending
    }

    /// `text` with every line break (`\r\n`, `\r` or `\n`) made `ending`.
    static func withLineEnding(_ text: String, _ ending: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .replacingOccurrences(of: "\n", with: ending)
    }

    /// The one entry `text` holds, read as the parser reads it; refused when it holds anything
    /// else, or reads with an error.
    static func singleEntry(_ text: String, path: String) throws(EditError) -> Entry {
        var macros = MacroTable()
        let read = BibFile.parse(bytes: Array(text.utf8), path: path, macros: &macros)
        guard read.entries.count == 1, read.comments.isEmpty, read.strings.isEmpty, read.preambles.isEmpty,
              let entry = read.entries.first, entry.offset == 0,
              let layout = EntryLayout.scan(read.source.bytes, at: 0), layout.end == read.source.bytes.count else {
            throw EditError(.invalidValue, "the text to add to \(path) is not exactly one BibTeX entry")
        }
        if let error = read.diagnostics.first(where: { $0.severity == .error }) {
            throw EditError(.invalidValue, "the entry to add to \(path) does not read cleanly: \(error.message)")
        }
        return entry
    }

    /// Whether `@string` (in any case) stands anywhere in `text` after `offset`.
    private static func hasStringBlock(in text: [UInt8], after offset: Int) -> Bool {
        let word = Array("string".utf8)
        var index = offset
        while index + 1 + word.count <= text.count {
            if text[index] == 0x40, zip(word, text[(index + 1)...]).allSatisfy({ $0 == ($1 | 0x20) }) { return true }
            index += 1
        }
        return false
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
