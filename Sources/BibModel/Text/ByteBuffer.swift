import Foundation

/// A growable run of bytes with memcpy appends, for hot output loops (decoding, JSON); the
/// owner calls `deallocate()` when done.
///
/// The appends are inlinable so that writers in other modules (the JSON writer) inline them.
public struct ByteBuffer {
    @usableFromInline var storage: UnsafeMutablePointer<UInt8>
    @usableFromInline var length = 0
    @usableFromInline var capacity: Int

    /// Where the bytes start (it moves when the buffer grows).
    public var base: UnsafeMutablePointer<UInt8> { storage }
    /// How many bytes have been written.
    public var count: Int { length }

    /// Allocates room for `capacity` bytes (it grows as needed).
    public init(capacity: Int) {
        self.capacity = max(16, capacity)
        storage = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    /// Frees the memory; the buffer must not be used afterwards.
    public func deallocate() {
        storage.deallocate()
    }

    public var isEmpty: Bool { count == 0 }

    public subscript(index: Int) -> UInt8 { base[index] }

    @inlinable @inline(__always) public mutating func append(_ byte: UInt8) {
        if length == capacity { grow(to: length + 1) }
        storage[length] = byte
        length += 1
    }

    @inlinable @inline(__always) public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if length + bytes.count > capacity { grow(to: length + bytes.count) }
        (storage + length).update(from: source, count: bytes.count)
        length += bytes.count
    }

    /// Appends `bytes` with `delimiter` before and after them (a JSON string that needs no
    /// escapes: `"text"`), checking the room once.
    @inlinable public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, enclosedIn delimiter: UInt8) {
        let needed = length + bytes.count + 2
        if needed > capacity { grow(to: needed) }
        storage[length] = delimiter
        if let source = bytes.baseAddress, bytes.count > 0 {
            (storage + length + 1).update(from: source, count: bytes.count)
        }
        storage[needed - 1] = delimiter
        length = needed
    }

    /// Appends a copy of bytes `range` of this buffer.
    public mutating func appendCopy(of range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= length, "range outside the bytes written")
        if length + range.count > capacity { grow(to: length + range.count) }
        (storage + length).update(from: storage + range.lowerBound, count: range.count)
        length += range.count
    }

    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Replaces bytes `range` with `bytes`, moving what follows.
    public mutating func replace(_ range: Range<Int>, with bytes: [UInt8]) {
        let tail = count - range.upperBound
        let newCount = count - range.count + bytes.count
        if newCount > capacity { grow(to: newCount) }
        (base + range.lowerBound + bytes.count).update(from: base + range.upperBound, count: tail)
        bytes.withUnsafeBufferPointer { buffer in
            if let source = buffer.baseAddress { (base + range.lowerBound).update(from: source, count: buffer.count) }
        }
        length = newCount
    }

    /// The bytes written so far, copied into an array.
    public var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Drops everything from `index` on.
    public mutating func truncate(to index: Int) {
        length = min(length, index)
    }

    /// The bytes from `start` to the end (or the first `length` of them), as text.
    public func string(from start: Int = 0, count length: Int? = nil) -> String {
        String(decoding: UnsafeBufferPointer(start: base + start, count: min(length ?? count - start, count - start)), as: UTF8.self)
    }

    @usableFromInline mutating func grow(to needed: Int) {
        capacity = max(needed, capacity * 2)
        storage = storage.movedToNewAllocation(count: count, capacity: capacity)
    }
}

extension UnsafeMutablePointer {
    /// Moves the first `count` elements to a new allocation of `capacity` elements, frees this
    /// one, and returns the new one (how the growable buffers of this module grow).
    func movedToNewAllocation(count: Int, capacity: Int) -> UnsafeMutablePointer {
        let moved = UnsafeMutablePointer.allocate(capacity: capacity)
        moved.moveInitialize(from: self, count: count)
        deallocate()
        return moved
    }
}
