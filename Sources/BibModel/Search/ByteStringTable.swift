import Foundation

/// Distinct byte strings, numbered in the order first met; found again by their bytes.
struct ByteStringTable {
    private var storage: [UInt8] = []
    private var offsets: [Int] = []
    private var hashes: [UInt64] = []
    private(set) var strings: [String] = []
    private var slots = [Int32](repeating: -1, count: 1024)

    /// The number of `bytes`, adding it when new.
    mutating func id(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
        let found: Int? = storage.withUnsafeBufferPointer { stored in
            while slots[slot] >= 0 {
                let candidate = Int(slots[slot])
                let start = offsets[candidate]
                let end = candidate + 1 < offsets.count ? offsets[candidate + 1] : stored.count
                if hashes[candidate] == hash, end - start == bytes.count,
                   let storedBase = stored.baseAddress, let base = bytes.baseAddress,
                   memcmp(storedBase + start, base, bytes.count) == 0 {
                    return candidate
                }
                slot = (slot + 1) & mask
            }
            return nil
        }
        if let found { return found }
        let id = strings.count
        offsets.append(storage.count)
        storage.append(contentsOf: bytes)
        hashes.append(hash)
        strings.append(String(decoding: bytes, as: UTF8.self))
        slots[slot] = Int32(id)
        if strings.count * 2 > slots.count { grow() }
        return id
    }

    /// The number here of each string of `other`, by its number there (adding the new ones).
    mutating func ids(of other: ByteStringTable) -> [Int32] {
        other.storage.withUnsafeBufferPointer { stored in
            other.offsets.indices.map { index in
                let end = index + 1 < other.offsets.count ? other.offsets[index + 1] : stored.count
                return Int32(id(of: UnsafeBufferPointer(rebasing: stored[other.offsets[index]..<end])))
            }
        }
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (id, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(id)
        }
    }
}
