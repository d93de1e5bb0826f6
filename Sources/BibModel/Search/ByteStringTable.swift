import Foundation

/// Distinct byte strings, numbered in the order first met; found again by their bytes. They are
/// kept as bytes in one buffer: `strings()` makes them Strings once, when all are in.
struct ByteStringTable {
    private var storage: [UInt8] = []
    private var offsets: [Int] = []
    private var hashes: [UInt64] = []
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
        let id = offsets.count
        offsets.append(storage.count)
        storage.append(contentsOf: bytes)
        hashes.append(hash)
        slots[slot] = Int32(id)
        if offsets.count * 2 > slots.count { grow() }
        return id
    }

    /// The number here of each string of `other`, by its number there (adding the new ones).
    mutating func ids(of other: ByteStringTable) -> [Int32] {
        other.storage.withUnsafeBufferPointer { stored in
            other.offsets.indices.map { index in Int32(id(of: UnsafeBufferPointer(rebasing: stored[other.bytes(of: index)]))) }
        }
    }

    /// Every string, by its number.
    func strings() -> [String] {
        storage.withUnsafeBufferPointer { stored in
            offsets.indices.map { index in String(decoding: UnsafeBufferPointer(rebasing: stored[bytes(of: index)]), as: UTF8.self) }
        }
    }

    /// Where string `index` is in `storage`.
    private func bytes(of index: Int) -> Range<Int> {
        offsets[index]..<(index + 1 < offsets.count ? offsets[index + 1] : storage.count)
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
