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

    /// Collects `entries[range]` (their positions in `entries` are their numbers).
    mutating func add(_ range: Range<Int>, of entries: [Entry]) {
        years.reserveCapacity(years.count + range.count)
        for index in range {
            let id = Int32(index)
            let entry = entries[index]
            add(slots.slot(named: "key"), entry.key, entry: id)
            add(slots.slot(named: "type"), entry.type, entry: id)
            for field in entry.fields where !field.kind.isBibDeskFile {
                add(slots.slot(of: field, in: entry.source.fieldNames), entry.decodedText(of: field), entry: id)
            }
            years.append(entry.year.flatMap { Int($0.prefix(4)) })
        }
    }

    private mutating func add(_ slot: Int, _ text: String, entry id: Int32) {
        if slot == fields.count { fields.append(WordPostings.Builder()) }
        SearchIndexBuilder.forEachFoldedWord(of: text, scratch: &scratch) { word in
            let wordID = Int32(table.id(of: word))
            any.add(wordID, entry: id)
            fields[slot].add(wordID, entry: id)
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
        // Words sorted once for every builder: each then orders its own by this rank.
        let words = table.strings
        let order = words.indices.sorted { words[$0] < words[$1] }
        var ranks = [Int32](repeating: 0, count: words.count)
        for (position, id) in order.enumerated() { ranks[id] = Int32(position) }
        let rank = ranks
        let built = LockedValue<(any: WordPostings?, byField: [String: WordPostings])>((nil, [:]))
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            var places = [Int](repeating: -1, count: words.count)
            if part == 0 {
                let any = self.any.build(words: words, rank: rank, places: &places)
                built.withLock { $0.any = any }
            } else {
                var byField: [String: WordPostings] = [:]
                for (name, slot) in slots.names { byField[name] = fields[slot].build(words: words, rank: rank, places: &places) }
                built.withLock { $0.byField = byField }
            }
        }
        let result = built.withLock { $0 }
        return (result.any ?? .empty, result.byField)
    }

    /// Calls `body` with each word of `text` folded (`Folding.fold`, then `FoldedWords`): ASCII
    /// text is lowered word by word in `scratch`, without a folded copy of the whole text.
    private static func forEachFoldedWord(of text: String, scratch: inout [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var text = text
        let ascii: Bool = text.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return false }
            FoldedWords.forEachWord(in: bytes) { word in
                guard word.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return body(word) }
                scratch.removeAll(keepingCapacity: true)
                for byte in word { scratch.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) }
                scratch.withUnsafeBufferPointer(body)
            }
            return true
        }
        guard !ascii else { return }
        var folded = Folding.fold(text)
        folded.withUTF8 { FoldedWords.forEachWord(in: $0, body) }
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
