import Foundation

/// A value of a property list, including the `UID` type that NSKeyedArchiver archives use.
public indirect enum PropertyListValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    case date(Double)
    case data([UInt8])
    case uid(UInt64)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])
    case null

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public subscript(key: String) -> PropertyListValue? {
        if case .dictionary(let values) = self { return values[key] }
        return nil
    }
}

/// Errors reading a binary property list.
public enum PropertyListError: Error, Equatable, CustomStringConvertible {
    case notBinaryPlist
    case truncated
    case badOffset(Int)
    case unsupportedObject(UInt8)
    case tooDeep

    public var description: String {
        switch self {
        case .notBinaryPlist: return "not a binary property list"
        case .truncated: return "binary property list is truncated"
        case .badOffset(let offset): return "binary property list has a bad offset \(offset)"
        case .unsupportedObject(let marker): return "binary property list has an unknown object type 0x\(String(marker, radix: 16))"
        case .tooDeep: return "binary property list nests too deeply or has too many objects"
        }
    }
}

/// Reads `bplist00` data (Apple's binary property list format) without Foundation's
/// PropertyListSerialization, so that keyed-archiver UIDs survive and hostile input is bounded.
public enum BinaryPropertyList {
    /// Parses a whole binary property list.
    public static func parse(_ bytes: [UInt8]) throws -> PropertyListValue {
        guard bytes.count >= 40, bytes.starts(with: Array("bplist00".utf8)) else { throw PropertyListError.notBinaryPlist }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let objectCount = try integer(bytes, at: trailer + 8, size: 8)
        let topObject = try integer(bytes, at: trailer + 16, size: 8)
        let tableOffset = try integer(bytes, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), objectCount > 0, objectCount < 1 << 24,
              topObject < objectCount, tableOffset < trailer,
              tableOffset + objectCount * offsetSize <= trailer
        else { throw PropertyListError.truncated }
        var reader = Reader(bytes: bytes, offsetSize: offsetSize, referenceSize: referenceSize,
                            objectCount: objectCount, tableOffset: tableOffset)
        return try reader.object(topObject, depth: 0)
    }

    static func integer(_ bytes: [UInt8], at offset: Int, size: Int) throws -> Int {
        guard offset >= 0, offset + size <= bytes.count else { throw PropertyListError.truncated }
        var value: UInt64 = 0
        for index in 0..<size { value = (value << 8) | UInt64(bytes[offset + index]) }
        guard value <= UInt64(Int.max) else { throw PropertyListError.badOffset(offset) }
        return Int(value)
    }

    private struct Reader {
        let bytes: [UInt8]
        let offsetSize: Int
        let referenceSize: Int
        let objectCount: Int
        let tableOffset: Int
        /// Objects decoded so far: shared references could otherwise expand exponentially.
        var decoded = 0

        mutating func object(_ reference: Int, depth: Int) throws -> PropertyListValue {
            guard depth < 64, decoded < 100_000 else { throw PropertyListError.tooDeep }
            decoded += 1
            guard reference < objectCount else { throw PropertyListError.badOffset(reference) }
            let offset = try BinaryPropertyList.integer(bytes, at: tableOffset + reference * offsetSize, size: offsetSize)
            guard offset < bytes.count else { throw PropertyListError.badOffset(offset) }
            let marker = bytes[offset]
            let kind = marker >> 4
            let info = Int(marker & 0x0F)
            switch kind {
            case 0x0:
                switch info {
                case 0x8: return .bool(false)
                case 0x9: return .bool(true)
                default: return .null
                }
            case 0x1:
                let size = 1 << info
                guard size <= 8 else { throw PropertyListError.unsupportedObject(marker) }
                let raw = try BinaryPropertyList.integer(bytes, at: offset + 1, size: size)
                return .integer(Int64(truncatingIfNeeded: raw))
            case 0x2:
                let size = 1 << info
                let raw = UInt64(try BinaryPropertyList.integer(bytes, at: offset + 1, size: size))
                return .real(size == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw))) : Double(bitPattern: raw))
            case 0x3:
                let raw = UInt64(try BinaryPropertyList.integer(bytes, at: offset + 1, size: 8))
                return .date(Double(bitPattern: raw))
            case 0x4:
                let (count, start) = try length(info, at: offset)
                return .data(try slice(start, count))
            case 0x5:
                let (count, start) = try length(info, at: offset)
                return .string(String(decoding: try slice(start, count), as: UTF8.self))
            case 0x6:
                let (count, start) = try length(info, at: offset)
                let raw = try slice(start, count * 2)
                let units = stride(from: 0, to: raw.count, by: 2).map { UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1]) }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                let raw = try BinaryPropertyList.integer(bytes, at: offset + 1, size: info + 1)
                return .uid(UInt64(raw))
            case 0xA:
                let (count, start) = try length(info, at: offset)
                var items: [PropertyListValue] = []
                for index in 0..<count {
                    let child = try BinaryPropertyList.integer(bytes, at: start + index * referenceSize, size: referenceSize)
                    items.append(try object(child, depth: depth + 1))
                }
                return .array(items)
            case 0xD:
                let (count, start) = try length(info, at: offset)
                var values: [String: PropertyListValue] = [:]
                for index in 0..<count {
                    let keyReference = try BinaryPropertyList.integer(bytes, at: start + index * referenceSize, size: referenceSize)
                    let valueReference = try BinaryPropertyList.integer(bytes, at: start + (count + index) * referenceSize, size: referenceSize)
                    guard let key = try object(keyReference, depth: depth + 1).string else { continue }
                    values[key] = try object(valueReference, depth: depth + 1)
                }
                return .dictionary(values)
            default:
                throw PropertyListError.unsupportedObject(marker)
            }
        }

        /// Object lengths of 15 or more are written as a following integer object.
        func length(_ info: Int, at offset: Int) throws -> (count: Int, start: Int) {
            guard info == 0xF else { return (info, offset + 1) }
            guard offset + 1 < bytes.count else { throw PropertyListError.truncated }
            let marker = bytes[offset + 1]
            guard marker >> 4 == 0x1 else { throw PropertyListError.unsupportedObject(marker) }
            let size = 1 << Int(marker & 0x0F)
            let count = try BinaryPropertyList.integer(bytes, at: offset + 2, size: size)
            guard count < bytes.count else { throw PropertyListError.truncated }
            return (count, offset + 2 + size)
        }

        func slice(_ start: Int, _ count: Int) throws -> [UInt8] {
            guard count >= 0, start + count <= bytes.count else { throw PropertyListError.truncated }
            return Array(bytes[start..<(start + count)])
        }
    }
}

/// Reads values out of NSKeyedArchiver archives by following UIDs, never by fixed indexes.
public enum KeyedArchive {
    /// The root object of an archive, with UIDs still in it.
    public static func root(of archive: PropertyListValue) -> PropertyListValue? {
        guard case .uid(let uid)? = archive["$top"]?["root"] else { return nil }
        return object(uid, in: archive)
    }

    /// The object a UID points at in `$objects`.
    public static func object(_ uid: UInt64, in archive: PropertyListValue) -> PropertyListValue? {
        guard case .array(let objects)? = archive["$objects"], uid < UInt64(objects.count) else { return nil }
        return objects[Int(uid)]
    }

    /// The value for `key` in an archived NSDictionary (`NS.keys` / `NS.objects`), or in a
    /// keyed-archived object's own keys; UIDs are followed.
    public static func value(for key: String, in object: PropertyListValue, archive: PropertyListValue) -> PropertyListValue? {
        let resolve = { (value: PropertyListValue) -> PropertyListValue? in
            if case .uid(let uid) = value { return Self.object(uid, in: archive) }
            return value
        }
        if case .array(let keys)? = object["NS.keys"], case .array(let values)? = object["NS.objects"] {
            for (keyReference, valueReference) in zip(keys, values) where resolve(keyReference)?.string == key {
                return resolve(valueReference)
            }
            return nil
        }
        return object[key].flatMap(resolve)
    }
}
