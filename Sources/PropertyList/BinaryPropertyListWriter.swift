/// Writes binary property lists (`bplist00`) deterministically: objects are numbered depth
/// first (a container, then its keys, then its values), equal strings and integers are written
/// once, and every size is the smallest that fits.
struct BinaryPropertyListWriter {
    /// A flattened object: a scalar, or a container with its children's object numbers.
    private enum Object {
        case scalar(PropertyListValue)
        case array([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    /// What makes two scalars the same object (strings by their UTF-8, not canonical equality).
    private enum ScalarKey: Hashable {
        case string([UInt8])
        case integer(Int64)
    }

    private var objects: [Object] = []
    private var shared: [ScalarKey: Int] = [:]

    /// The binary plist for `value`.
    static func write(_ value: PropertyListValue) -> [UInt8] {
        var writer = BinaryPropertyListWriter()
        _ = writer.flatten(value)
        return writer.serialize()
    }

    /// Numbers `value` and everything in it; returns its object number.
    private mutating func flatten(_ value: PropertyListValue) -> Int {
        switch value {
        case .array(let items):
            let index = reserve()
            let children = items.map { flatten($0) }
            objects[index] = .array(children)
            return index
        case .dictionary(let dictionary):
            let index = reserve()
            let keys = dictionary.entries.map { flatten(.string($0.key)) }
            let values = dictionary.entries.map { flatten($0.value) }
            objects[index] = .dictionary(keys: keys, values: values)
            return index
        case .string(let text):
            return sharedScalar(.string(Array(text.utf8)), value)
        case .integer(let number):
            return sharedScalar(.integer(number), value)
        default:
            objects.append(.scalar(value))
            return objects.count - 1
        }
    }

    private mutating func reserve() -> Int {
        objects.append(.array([]))
        return objects.count - 1
    }

    private mutating func sharedScalar(_ key: ScalarKey, _ value: PropertyListValue) -> Int {
        if let index = shared[key] { return index }
        objects.append(.scalar(value))
        shared[key] = objects.count - 1
        return objects.count - 1
    }

    /// The bytes: header, objects, offset table, trailer.
    private func serialize() -> [UInt8] {
        let referenceSize = Self.byteCount(UInt64(max(objects.count - 1, 0)))
        var output = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(output.count)
            switch object {
            case .scalar(let value):
                Self.appendScalar(value, to: &output)
            case .array(let children):
                Self.appendMarker(0xA, count: children.count, to: &output)
                for child in children { Self.appendUnsigned(UInt64(child), size: referenceSize, to: &output) }
            case .dictionary(let keys, let values):
                Self.appendMarker(0xD, count: keys.count, to: &output)
                for child in keys + values { Self.appendUnsigned(UInt64(child), size: referenceSize, to: &output) }
            }
        }
        let tableOffset = output.count
        let offsetSize = Self.byteCount(UInt64(tableOffset))
        for offset in offsets { Self.appendUnsigned(UInt64(offset), size: offsetSize, to: &output) }
        output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        Self.appendUnsigned(UInt64(objects.count), size: 8, to: &output)
        Self.appendUnsigned(0, size: 8, to: &output)
        Self.appendUnsigned(UInt64(tableOffset), size: 8, to: &output)
        return output
    }

    /// The bytes needed for `value` as an offset or reference: 1, 2, 4 or 8.
    private static func byteCount(_ value: UInt64) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    private static func appendUnsigned(_ value: UInt64, size: Int, to output: inout [UInt8]) {
        for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
            output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// A marker with `count` in its low nibble, or 0xF and an integer object after it.
    private static func appendMarker(_ kind: UInt8, count: Int, to output: inout [UInt8]) {
        if count < 15 {
            output.append(kind << 4 | UInt8(count))
        } else {
            output.append(kind << 4 | 0x0F)
            appendInteger(Int64(count), to: &output)
        }
    }

    /// An integer object: 1, 2 or 4 bytes unsigned when it fits, else 8 bytes signed.
    private static func appendInteger(_ value: Int64, to output: inout [UInt8]) {
        let size = value < 0 ? 8 : byteCount(UInt64(value))
        output.append(0x10 | UInt8(size.trailingZeroBitCount))
        appendUnsigned(UInt64(bitPattern: value), size: size, to: &output)
    }

    private static func appendScalar(_ value: PropertyListValue, to output: inout [UInt8]) {
        switch value {
        case .null:
            output.append(0x00)
        case .boolean(let flag):
            output.append(flag ? 0x09 : 0x08)
        case .integer(let number):
            appendInteger(number, to: &output)
        case .real(let number):
            output.append(0x23)
            appendUnsigned(number.bitPattern, size: 8, to: &output)
        case .date(let seconds):
            output.append(0x33)
            appendUnsigned(seconds.bitPattern, size: 8, to: &output)
        case .data(let bytes):
            appendMarker(0x4, count: bytes.count, to: &output)
            output += bytes
        case .string(let text):
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                appendMarker(0x5, count: text.utf8.count, to: &output)
                output += text.utf8
            } else {
                let units = Array(text.utf16)
                appendMarker(0x6, count: units.count, to: &output)
                for unit in units {
                    output.append(UInt8(unit >> 8))
                    output.append(UInt8(unit & 0xFF))
                }
            }
        case .uid(let number):
            let size = byteCount(number)
            output.append(0x80 | UInt8(size - 1))
            appendUnsigned(number, size: size, to: &output)
        case .array, .dictionary:
            break  // flattened by the caller
        }
    }
}
