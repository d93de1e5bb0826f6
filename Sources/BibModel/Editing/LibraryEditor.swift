import Foundation

/// Edits one .bib file of a library in the file's own conventions, changing only the bytes of
/// the fields that change (and the modification date, and a static group's member list).
///
/// Pure: it is given the file's bytes as they were loaded and the library parsed from them, and
/// gives the new bytes; the clock is an argument. Every other entry, comment, `@string`, blank
/// line, field order, indentation, brace or quote style, line ending and the encoding keep their
/// bytes. A new field is written in the style of its neighbours. A value the file's encoding
/// cannot hold, or that is not valid BibTeX, is refused with a message, never mangled.
public struct LibraryEditor: Sendable {
    /// The conventions the file follows.
    public let conventions: LibraryConventions
    let library: Library
    let file: BibFile
    /// The file's bytes as read (its own encoding, with its BOM if any).
    let original: [UInt8]
    let bomLength: Int

    /// An editor for the file at `path` of `library`, whose bytes as read are `fileBytes`.
    ///
    /// Throws `.staleFile` when `fileBytes` are not what the library was read from.
    public init(library: Library, path: String, fileBytes: [UInt8]) throws(EditError) {
        guard let file = library.files.first(where: { $0.source.path == path }) else {
            throw EditError(.staleFile, "\(path) is not a file of this library")
        }
        guard SourceDecoding.decode(fileBytes).utf8 == file.source.bytes else {
            throw EditError(.staleFile, "\(path) has changed since it was read; read it again before editing")
        }
        self.library = library
        self.file = file
        self.original = fileBytes
        self.conventions = LibraryConventions(file: file, entries: library.entries.filter { $0.source === file.source })
        let hasBOM = file.source.encoding == .utf8 && fileBytes.starts(with: [0xEF, 0xBB, 0xBF])
        bomLength = hasBOM ? 3 : 0
    }

    /// Applies `edits`, in order, to the entry at `address`; `date` (in `timeZone`) is the
    /// modification date written where the file keeps one.
    public func apply(_ edits: [EntryEdit], to address: EntryAddress, at date: Date,
                      in timeZone: TimeZone = .current) throws(EditError) -> EditResult {
        if let refusal = conventions.readOnlyRefusal(path: file.source.path) { throw refusal }
        guard let entry = library.entry(at: address), entry.source === file.source else {
            throw EditError(.unknownEntry, "no entry '\(address.text)' in \(file.source.path)")
        }
        let text = file.source.bytes
        guard let layout = EntryLayout.scan(text, at: entry.offset), EntryDraft.matches(layout, entry) else {
            throw EditError.unreadable(entry, path: file.source.path)
        }
        var draft = EntryDraft(entry: entry, layout: layout, text: text, conventions: conventions)
        var groupEdit: GroupCommentEdit?
        for edit in edits {
            if let group = try draft.apply(edit, library: library, file: file) {
                groupEdit = try GroupCommentEdit.merge(groupEdit, group)
            }
        }
        if !draft.changes.isEmpty || groupEdit?.changesMembers == true, conventions.keepsModificationDate,
           !draft.setsExplicitly(conventions.modificationDateField) {
            draft.set(conventions.modificationDateField, to: conventions.modificationDate(date, timeZone: timeZone))
        }
        var splices = try draft.splices(encoding: file.source.encoding)
        if let groupEdit, let splice = try groupEdit.splice(in: text, file: file) { splices.append(splice) }
        var index = 0
        for other in library.entries where other.source === entry.source {
            if other.offset == entry.offset { break }
            index += 1
        }
        return try assemble(splices, address: address, entryIndex: index, edits: edits, changes: draft.changes,
                            group: groupEdit?.changesMembers == true ? groupEdit?.name : nil)
    }

    /// Applies the splices (UTF-8 offsets, UTF-8 text) to the original bytes.
    func assemble(_ splices: [Splice], address: EntryAddress, entryIndex: Int, edits: [EntryEdit], changes: [FieldChange],
                  group: String?, wholeEntry: WholeEntryChange? = nil) throws(EditError) -> EditResult {
        let ordered = splices.sorted { $0.range.lowerBound != $1.range.lowerBound ? $0.range.lowerBound < $1.range.lowerBound : $0.range.isEmpty && !$1.range.isEmpty }
        for (earlier, later) in zip(ordered, ordered.dropFirst()) where earlier.range.upperBound > later.range.lowerBound {
            throw EditError(.checkFailed, "these edits overlap in the file; make them one at a time")
        }
        let offsets = OffsetMap(source: file.source.bytes, encoding: file.source.encoding, bomLength: bomLength)
        var output: [UInt8] = []
        output.reserveCapacity(original.count + ordered.reduce(0) { $0 + $1.text.utf8.count })
        var replacements: [Replacement] = []
        var copied = 0
        for splice in ordered {
            let start = offsets.original(splice.range.lowerBound)
            let end = offsets.original(splice.range.upperBound)
            let encoded: [UInt8]
            switch file.source.encoding.encode(splice.text) {
            case .success(let bytes): encoded = bytes
            case .failure(let character):
                throw EditError(.unencodable, "\(character.described) cannot be written in \(file.source.path), which is in \(file.source.encoding.rawValue); write it as LaTeX (for example {\\\"o} for ö) or convert the file to UTF-8")
            }
            output += original[copied..<start]
            output += encoded
            copied = end
            if end - start != encoded.count || !original[start..<end].elementsEqual(encoded) {
                replacements.append(Replacement(range: start..<end, newCount: encoded.count))
            }
        }
        output += original[copied...]
        let effective = changes.filter { $0.oldValue != $0.newValue }
        return EditResult(bytes: replacements.isEmpty ? original : output, address: address, edits: edits,
                          changes: effective, changedGroupComment: group, replacements: replacements,
                          entryIndex: entryIndex, wholeEntry: wholeEntry)
    }
}

/// New text for a byte range of the file's UTF-8 text (an empty range: an insertion).
struct Splice {
    let range: Range<Int>
    let text: String
}

/// Maps offsets of the UTF-8 text to offsets of the file's own bytes.
struct OffsetMap {
    let source: [UInt8]
    let encoding: TextEncoding
    let bomLength: Int

    func original(_ offset: Int) -> Int {
        if encoding == .utf8 { return offset + bomLength }
        // One byte of the file per character: count the characters before `offset`.
        var count = 0
        for index in 0..<offset where source[index] & 0xC0 != 0x80 { count += 1 }
        return count
    }
}
