import Foundation

/// Names seen so far (field names, entry types, macro names), found again by their bytes
/// without allocating; each is also numbered in the file's `FieldNameStore`.
struct NameTable {
    /// A name found in the table: plain numbers, copied for free; its text is asked of the
    /// table (`lower(of:)`, `spelled(of:)`).
    struct Name {
        /// The name's number in this table.
        fileprivate let number: Int32
        /// The name's number in the file's `FieldNameStore`.
        let id: UInt32
        /// The same number for every spelling of one name (`Title`, `title`).
        let group: Int
        let kind: FieldKind
    }

    let store: FieldNameStore
    /// Every name's bytes, one after another.
    private var storage: [UInt8] = []
    /// Per name (in the order first seen): where its bytes are, their hash, and its first eight
    /// bytes as a word (zero-padded), which decides equality alone for names of eight bytes or
    /// fewer.
    private var entries: [Stored] = []
    private var names: [Name] = []
    /// Per name, its text in lower case and as written.
    private var texts: [(lower: String, spelled: String)] = []
    /// Open addressing: an index in `entries`, or -1.
    private var slots = [Int32](repeating: -1, count: 64)

    private struct Stored {
        let offset: Int
        let length: Int
        let hash: UInt64
        let head: UInt64
    }

    init(store: FieldNameStore) {
        self.store = store
    }

    /// The name written at bytes `start ..< end`.
    mutating func name(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Name {
        let length = end - start
        var head: UInt64 = 0
        var hash = UInt64(truncatingIfNeeded: length) &* 0x9E37_79B9_7F4A_7C15
        if let base = text.baseAddress {
            head = NameTable.head(base + start, length: length, readable: text.count - start)
            hash ^= head
            var offset = 8
            while offset < length {
                // The words after the first; the last one overlaps the one before.
                let word = UnsafeRawPointer(base + start + min(offset, length - 8)).loadUnaligned(as: UInt64.self)
                hash = (hash ^ word) &* 0x100_0000_01B3
                offset += 8
            }
        }
        hash = (hash ^ (hash >> 29)) &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 32
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let candidate = Int(slots[slot])
            if candidate < 0 { break }
            let stored = entries[candidate]
            if stored.hash == hash, stored.length == length, stored.head == head,
               length <= 8 || sameBytes(stored, UnsafeBufferPointer(rebasing: text[start..<end])) {
                return names[candidate]
            }
            slot = (slot + 1) & mask
        }
        return insert(UnsafeBufferPointer(rebasing: text[start..<end]), hash: hash, head: head)
    }

    /// The name in lower case (`title`).
    func lower(of name: Name) -> String { texts[Int(name.number)].lower }

    /// The name as the file spells it (`Title`).
    func spelled(of name: Name) -> String { texts[Int(name.number)].spelled }

    private func sameBytes(_ stored: Stored, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        storage.withUnsafeBufferPointer { all in
            guard let storedBase = all.baseAddress, let base = bytes.baseAddress else { return false }
            return memcmp(storedBase + stored.offset, base, stored.length) == 0
        }
    }

    /// The first eight bytes of a name (fewer when it is shorter, the rest zero), read as one
    /// word when eight bytes can be read there (`readable`).
    @inline(__always)
    private static func head(_ address: UnsafePointer<UInt8>, length: Int, readable: Int) -> UInt64 {
        if length >= 8 { return UInt64(littleEndian: UnsafeRawPointer(address).loadUnaligned(as: UInt64.self)) }
        if readable >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(address).loadUnaligned(as: UInt64.self))
            return word & ((UInt64(1) << (UInt64(length) * 8)) &- 1)
        }
        var word: UInt64 = 0
        for index in 0..<length { word |= UInt64(address[index]) << (UInt64(index) * 8) }
        return word
    }

    private mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64, head: UInt64) -> Name {
        var lowerBytes = Array(bytes)
        for index in lowerBytes.indices where lowerBytes[index] >= 0x41 && lowerBytes[index] <= 0x5A {
            lowerBytes[index] |= 0x20
        }
        let lower = String(decoding: lowerBytes, as: UTF8.self)
        let spelled = String(decoding: bytes, as: UTF8.self)
        let id = store.intern(spelled: spelled, lowercase: lower)
        let name = Name(number: Int32(names.count), id: id, group: store.groups[Int(id)], kind: store.kinds[Int(id)])
        texts.append((lower, spelled))
        entries.append(Stored(offset: storage.count, length: bytes.count, hash: hash, head: head))
        storage.append(contentsOf: bytes)
        names.append(name)
        if entries.count * 2 > slots.count {
            slots = [Int32](repeating: -1, count: slots.count * 2)
            for index in entries.indices { place(index) }
        } else {
            place(entries.count - 1)
        }
        return name
    }

    private mutating func place(_ index: Int) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: entries[index].hash) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(index)
    }
}
