import Dispatch
import Foundation

/// The words of a run of references, collected for a `SearchIndex`: each reference's texts
/// folded and split, each word numbered once, with the references that use it for all fields
/// together and per index name. Runs collected on several threads are joined in order.
struct SearchIndexBuilder {
    private(set) var table = ByteStringTable()
    private var any = WordPostings.Builder()
    private var fields: [WordPostings.Builder] = []
    private var slots = FieldSlots()
    private(set) var years: [Int?] = []
    private var scratch: [UInt8] = []
    /// By word number: the last reference listed with it for all fields, and the last text.
    private var lastEntry: [Int32] = []
    private var lastText: [Int32] = []
    private var textNumber: Int32 = 0

    /// Collects `entries[range]` (their positions in `entries` are their numbers). Each field is
    /// decoded into a buffer reused for the next (`LaTeX.withDecoded`, the text `decodedText(of:)`
    /// gives, with no String made for it), and each word is listed once per reference (and once
    /// per field's text) however often the text repeats it.
    mutating func add(_ range: Range<Int>, of entries: [Entry]) {
        years.reserveCapacity(years.count + range.count)
        var decoded = ByteBuffer(capacity: 4096)
        defer { decoded.deallocate() }
        for index in range {
            let id = Int32(index)
            let entry = entries[index]
            add(slots.slot(named: "key"), entry.key, entry: id)
            add(slots.slot(named: "type"), entry.type, entry: id)
            for field in entry.fields where !field.kind.isBibDeskFile {
                let slot = slots.slot(of: field, in: entry.source.fieldNames)
                entry.withRawBytes(of: field) { raw in
                    if field.isVerbatim {
                        LaTeX.withDecodedVerbatim(raw) { add(slot, $0, entry: id) }
                    } else {
                        LaTeX.withDecoded(raw, scratch: &decoded) { add(slot, $0, entry: id) }
                    }
                }
            }
            years.append(entry.year.flatMap { Int($0.prefix(4)) })
        }
    }

    private mutating func add(_ slot: Int, _ text: String, entry id: Int32) {
        var text = text
        text.withUTF8 { add(slot, $0, entry: id) }
    }

    /// Adds the words of one decoded text (UTF-8) of reference `id` to `slot`'s postings and
    /// to those of all fields: a word already listed for this reference (for this text, in
    /// `slot`'s) is not listed again (`WordPostings.Builder.build` counts a pair once anyway).
    private mutating func add(_ slot: Int, _ text: UnsafeBufferPointer<UInt8>, entry id: Int32) {
        if slot == fields.count { fields.append(WordPostings.Builder()) }
        textNumber += 1
        let thisText = textNumber
        SearchIndexBuilder.forEachFoldedWord(of: text, scratch: &scratch) { word in
            let wordID = table.id(of: word)
            if wordID >= lastEntry.count {
                lastEntry += repeatElement(-1, count: wordID + 1 - lastEntry.count)
                lastText += repeatElement(-1, count: wordID + 1 - lastText.count)
            }
            guard lastText[wordID] != thisText else { return }
            lastText[wordID] = thisText
            fields[slot].add(Int32(wordID), entry: id)
            guard lastEntry[wordID] != id else { return }
            lastEntry[wordID] = id
            any.add(Int32(wordID), entry: id)
        }
    }

    /// Adds what `other` collected from the references after this one's.
    mutating func append(_ other: SearchIndexBuilder) {
        let wordIDs = table.ids(of: other.table)
        any.append(other.any, wordIDs: wordIDs)
        for (name, otherSlot) in other.slots.names {
            let slot = slots.slot(named: name)
            if slot == fields.count { fields.append(WordPostings.Builder()) }
            fields[slot].append(other.fields[otherSlot], wordIDs: wordIDs)
        }
        years += other.years
    }

    /// The postings of every word, for all fields and by index name (the two on two threads).
    func build() -> (any: WordPostings, byField: [String: WordPostings]) {
        // Words sorted once for every builder: each then names its own by their places there.
        let vocabulary = WordPostings.Vocabulary(words: table.strings())
        let built = LockedValue<(any: WordPostings?, byField: [String: WordPostings])>((nil, [:]))
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            var places = [Int](repeating: -1, count: vocabulary.sorted.count)
            if part == 0 {
                let any = self.any.build(vocabulary: vocabulary, places: &places)
                built.withLock { $0.any = any }
            } else {
                var byField: [String: WordPostings] = [:]
                for (name, slot) in slots.names { byField[name] = fields[slot].build(vocabulary: vocabulary, places: &places) }
                built.withLock { $0.byField = byField }
            }
        }
        let result = built.withLock { $0 }
        return (result.any ?? .empty, result.byField)
    }

    /// Calls `body` with each word of `text` (UTF-8) folded (`Folding.fold`, then `FoldedWords`):
    /// ASCII text is lowered as its words are read, into `scratch`, in one pass.
    static func forEachFoldedWord(of text: UnsafeBufferPointer<UInt8>, scratch: inout [UInt8],
                                  _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard text.contains(where: { $0 >= 0x80 }) else {
            forEachLoweredWord(ofASCII: text, scratch: &scratch, body)
            return
        }
        var folded = Folding.fold(String(decoding: text, as: UTF8.self))
        folded.withUTF8 { FoldedWords.forEachWord(in: $0, body) }
    }

    /// The words of ASCII text as `FoldedWords` splits its folded form: runs of `a`–`z`, `A`–`Z`
    /// and `0`–`9`, each lowered.
    private static func forEachLoweredWord(ofASCII text: UnsafeBufferPointer<UInt8>, scratch: inout [UInt8],
                                           _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if scratch.count < text.count { scratch = [UInt8](repeating: 0, count: max(text.count, 2 * scratch.count)) }
        scratch.withUnsafeMutableBufferPointer { buffer in
            guard let word = buffer.baseAddress else { return }
            var length = 0
            for byte in text {
                // A letter of either case is one of a–z once bit 5 is set; nothing else is.
                let lowered = byte | 0x20
                if lowered >= 0x61 && lowered <= 0x7A {
                    word[length] = lowered
                    length += 1
                } else if byte >= 0x30 && byte <= 0x39 {
                    word[length] = byte
                    length += 1
                } else if length > 0 {
                    body(UnsafeBufferPointer(start: word, count: length))
                    length = 0
                }
            }
            if length > 0 { body(UnsafeBufferPointer(start: word, count: length)) }
        }
    }

    /// The builder of each index name, found by field-name number (per name store) without
    /// hashing the name again for every field of every reference.
    private struct FieldSlots {
        private(set) var names: [String: Int] = [:]
        private var store: ObjectIdentifier?
        private var byNameID: [Int] = []

        mutating func slot(named indexName: String) -> Int {
            if let slot = names[indexName] { return slot }
            names[indexName] = names.count
            return names.count - 1
        }

        mutating func slot(of field: Field, in fieldNames: FieldNameStore) -> Int {
            let identity = ObjectIdentifier(fieldNames)
            if identity != store {
                store = identity
                byNameID = []
            }
            let nameID = field.nameNumber
            if nameID < byNameID.count, byNameID[nameID] >= 0 { return byNameID[nameID] }
            let slot = slot(named: SearchIndex.indexName(fieldNames.lowercase[nameID]))
            if nameID >= byNameID.count { byNameID += [Int](repeating: -1, count: nameID + 1 - byNameID.count) }
            byNameID[nameID] = slot
            return slot
        }
    }
}
