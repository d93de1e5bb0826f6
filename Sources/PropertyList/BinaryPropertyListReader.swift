/// Reads binary property lists (`bplist00`) defensively: every offset and size is checked
/// against the input, reference cycles are refused, nesting is capped, and every visit of a
/// value counts against `maxValues` (a shared value counts each time it is reached, so that a
/// "billion laughs" of shared references fails after a bounded amount of work).
///
/// The reader walks the object graph with an explicit stack (no recursion) and remembers the
/// containers and strings it has built, so a shared object is built once however often it is
/// referenced; only the count of visits grows.
struct BinaryPropertyListReader {
    /// A value built from an object, with the visits it cost and its nesting height (the levels
    /// of containers in it: 0 for a scalar), so that only containers count against the depth, as
    /// in the XML reader.
    private struct Built {
        var value: PropertyListValue
        var visits: Int
        var height: Int
    }

    /// A container being built: its references still to follow and the values so far.
    private struct Frame {
        let object: Int
        let isDictionary: Bool
        let keys: [String]
        let references: [Int]
        var next = 0
        var values: [PropertyListValue] = []
        var visits: Int
        var height = 1

        func build() -> PropertyListValue {
            guard isDictionary else { return .array(values) }
            var dictionary = PropertyListDictionary()
            for (key, value) in zip(keys, values) {
                dictionary.append(key, value)
            }
            return .dictionary(dictionary)
        }
    }

    /// What looking at one object gives: a finished value or a container to fill.
    private enum Step {
        case built(Built)
        case container(Frame)
    }

    private let bytes: [UInt8]
    private let maxValueDepth: Int
    private var budget: ValueBudget
    private var offsetSize = 0
    private var referenceSize = 0
    private var objectCount = 0
    private var topObject = 0
    private var offsetTable = 0
    private var built: [Int: Built] = [:]
    private var inProgress: Set<Int> = []

    /// Reads the plist in `bytes` within `limits`.
    static func read(_ bytes: [UInt8], limits: PropertyListLimits) throws(PropertyListError) -> PropertyListValue {
        var reader = BinaryPropertyListReader(bytes: bytes, limits: limits)
        try reader.readTrailer()
        return try reader.readGraph()
    }

    private init(bytes: [UInt8], limits: PropertyListLimits) {
        self.bytes = bytes
        self.maxValueDepth = limits.maxDepth
        self.budget = ValueBudget(limit: limits.maxValues)
    }

    // MARK: - Structure

    private func malformed(_ message: String, at offset: Int?) -> PropertyListError {
        .malformed(format: .binary, location: offset.map { .byte($0) }, message: message)
    }

    /// Reads and checks the header and the 32-byte trailer.
    private mutating func readTrailer() throws(PropertyListError) {
        guard bytes.starts(with: Array("bplist".utf8)) else { throw malformed("missing the bplist header", at: 0) }
        guard bytes.count >= 8 else {
            throw malformed("the data is too short for a binary property list (\(bytes.count) bytes)", at: nil)
        }
        guard bytes[6] == UInt8(ascii: "0"), bytes[7] == UInt8(ascii: "0") else {
            let version = String(decoding: bytes[6..<8], as: UTF8.self)
            throw malformed("unsupported binary property list version \(PropertyListValue.quoted(version))", at: 6)
        }
        // Header, at least one one-byte object, a one-byte offset table and the trailer.
        guard bytes.count >= 8 + 1 + 1 + 32 else {
            throw malformed("the data is too short for a binary property list (\(bytes.count) bytes)", at: nil)
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize) else {
            throw malformed("the trailer gives an offset size of \(offsetSize) bytes (expected 1 to 8)", at: trailer + 6)
        }
        guard (1...8).contains(referenceSize) else {
            throw malformed("the trailer gives a reference size of \(referenceSize) bytes (expected 1 to 8)", at: trailer + 7)
        }
        let count = readUnsigned(at: trailer + 8, size: 8)
        let top = readUnsigned(at: trailer + 16, size: 8)
        let table = readUnsigned(at: trailer + 24, size: 8)
        guard count >= 1, count <= UInt64(trailer / offsetSize) else {
            throw malformed("the trailer gives \(count) objects, impossible in \(bytes.count) bytes", at: trailer + 8)
        }
        objectCount = Int(count)
        guard top < count else {
            throw malformed("the top object \(top) is not one of the \(count) objects", at: trailer + 16)
        }
        topObject = Int(top)
        guard table >= 9, table <= UInt64(trailer - objectCount * offsetSize) else {
            throw malformed("the offset table at \(table) does not fit before the trailer", at: trailer + 24)
        }
        offsetTable = Int(table)
    }

    /// `size` bytes at `offset`, big-endian. The caller has checked the bounds.
    private func readUnsigned(at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + size) {
            value = value << 8 | UInt64(bytes[index])
        }
        return value
    }

    /// Where object `object` starts, checked to be inside the object area.
    private func offset(of object: Int) throws(PropertyListError) -> Int {
        let entry = offsetTable + object * offsetSize
        let value = readUnsigned(at: entry, size: offsetSize)
        guard value >= 8, value < UInt64(offsetTable) else {
            throw malformed("object \(object) has offset \(value), outside the object area", at: entry)
        }
        return Int(value)
    }

    /// Checks that `count` bytes from `offset` lie in the object area.
    private func require(_ count: Int, at offset: Int, for what: String, object: Int) throws(PropertyListError) {
        guard count >= 0, offset <= offsetTable, count <= offsetTable - offset else {
            throw malformed("\(what) of object \(object) runs past the object area", at: offset)
        }
    }

    /// The length in a marker's low nibble, or in the integer that follows when it is 0xF.
    /// Returns the length and where the object's contents start.
    private func length(info: UInt8, at offset: Int, object: Int) throws(PropertyListError) -> (Int, Int) {
        guard info == 0x0F else { return (Int(info), offset + 1) }
        try require(2, at: offset, for: "the length", object: object)
        let marker = bytes[offset + 1]
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else {
            throw malformed("object \(object) has a bad length marker 0x\(String(marker, radix: 16))", at: offset + 1)
        }
        let size = 1 << Int(marker & 0x0F)
        try require(2 + size, at: offset, for: "the length", object: object)
        let value = readUnsigned(at: offset + 2, size: size)
        guard value <= UInt64(offsetTable) else {
            throw malformed("object \(object) declares a length of \(value), more than the data holds", at: offset)
        }
        return (Int(value), offset + 2 + size)
    }

    /// `count` object references from `offset`, each checked to name an object.
    private func references(_ count: Int, at offset: Int, object: Int) throws(PropertyListError) -> [Int] {
        let (byteCount, overflow) = count.multipliedReportingOverflow(by: referenceSize)
        guard !overflow else { throw malformed("object \(object) has too many references", at: offset) }
        try require(byteCount, at: offset, for: "the references", object: object)
        var result: [Int] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            let position = offset + index * referenceSize
            let reference = readUnsigned(at: position, size: referenceSize)
            guard reference < UInt64(objectCount) else {
                throw malformed("object \(object) refers to object \(reference), but there are only \(objectCount)", at: position)
            }
            result.append(Int(reference))
        }
        return result
    }

    // MARK: - Objects

    /// Builds the top object and everything it reaches.
    private mutating func readGraph() throws(PropertyListError) -> PropertyListValue {
        var stack: [Frame] = []
        var finished: Built
        switch try look(at: topObject, depth: 1) {
        case .built(let value): return value.value
        case .container(let frame): stack.append(frame)
        }
        finished = Built(value: .null, visits: 0, height: 0)
        var hasFinished = false
        while let last = stack.indices.last {
            if hasFinished {
                stack[last].values.append(finished.value)
                stack[last].visits += finished.visits
                stack[last].height = max(stack[last].height, finished.height + 1)
                hasFinished = false
            }
            if stack[last].next < stack[last].references.count {
                let reference = stack[last].references[stack[last].next]
                stack[last].next += 1
                switch try look(at: reference, depth: stack.count + 1) {
                case .built(let value):
                    finished = value
                    hasFinished = true
                case .container(let frame):
                    stack.append(frame)
                }
            } else {
                let frame = stack.removeLast()
                finished = Built(value: frame.build(), visits: frame.visits, height: frame.height)
                hasFinished = true
                inProgress.remove(frame.object)
                built[frame.object] = finished
            }
        }
        return finished.value
    }

    /// Looks at `object` reached at nesting `depth` (its containers included): a value already
    /// built (counted again, its height checked against the depth limit), a scalar, or a
    /// container whose references are still to follow.
    private mutating func look(at object: Int, depth: Int) throws(PropertyListError) -> Step {
        if let known = built[object] {
            if depth + known.height - 1 > maxValueDepth { throw .nestingTooDeep(limit: maxValueDepth) }
            try budget.spend(known.visits)
            return .built(known)
        }
        let start = try offset(of: object)
        if inProgress.contains(object) {
            throw malformed("object \(object) contains itself (a reference cycle)", at: start)
        }
        try budget.spend()
        let marker = bytes[start]
        let info = marker & 0x0F
        switch marker >> 4 {
        case 0xA, 0xB, 0xC, 0xD:
            if depth > maxValueDepth { throw .nestingTooDeep(limit: maxValueDepth) }
            let isDictionary = marker >> 4 == 0xD
            let (count, contents) = try length(info: info, at: start, object: object)
            let (total, overflow) = count.multipliedReportingOverflow(by: isDictionary ? 2 : 1)
            guard !overflow else { throw malformed("object \(object) has too many entries", at: start) }
            let all = try references(total, at: contents, object: object)
            var keys: [String] = []
            if isDictionary {
                keys.reserveCapacity(count)
                for key in all[0..<count] {
                    keys.append(try keyString(key, of: object))
                }
            }
            let values = Array(all[(isDictionary ? count : 0)...])
            let frame = Frame(object: object, isDictionary: isDictionary, keys: keys, references: values,
                              visits: 1 + keys.count)
            if values.isEmpty {
                let value = Built(value: frame.build(), visits: frame.visits, height: 1)
                built[object] = value
                return .built(value)
            }
            inProgress.insert(object)
            return .container(frame)
        default:
            let value = try scalar(object, at: start)
            let result = Built(value: value, visits: 1, height: 0)
            switch value {
            case .string, .data: built[object] = result
            default: break
            }
            return .built(result)
        }
    }

    /// The string a dictionary key refers to (keys must be strings).
    private mutating func keyString(_ key: Int, of dictionary: Int) throws(PropertyListError) -> String {
        if let known = built[key], case .string(let text) = known.value {
            try budget.spend()
            return text
        }
        let start = try offset(of: key)
        let kind = bytes[start] >> 4
        guard kind == 0x5 || kind == 0x6 else {
            throw malformed("a key of dictionary object \(dictionary) is not a string", at: start)
        }
        try budget.spend()
        let value = try scalar(key, at: start)
        built[key] = Built(value: value, visits: 1, height: 0)
        guard case .string(let text) = value else {
            throw malformed("a key of dictionary object \(dictionary) is not a string", at: start)
        }
        return text
    }

    /// Reads a non-container object.
    private func scalar(_ object: Int, at start: Int) throws(PropertyListError) -> PropertyListValue {
        let marker = bytes[start]
        let info = marker & 0x0F
        switch marker >> 4 {
        case 0x0:
            switch info {
            case 0x0, 0xF: return .null
            case 0x8: return .boolean(false)
            case 0x9: return .boolean(true)
            default: break
            }
        case 0x1:
            guard info <= 4 else { break }
            let size = 1 << Int(info)
            try require(1 + size, at: start, for: "the integer", object: object)
            if size == 16 {
                let high = readUnsigned(at: start + 1, size: 8)
                let low = readUnsigned(at: start + 9, size: 8)
                if high == 0 {
                    return low <= UInt64(Int64.max) ? .integer(Int64(low)) : .real(Double(low))
                }
                if high == UInt64.max, low >= 1 << 63 { return .integer(Int64(bitPattern: low)) }
                return .real(high >> 63 == 1 ? -Double(UInt64.max) : Double(UInt64.max) * Double(high))
            }
            let value = readUnsigned(at: start + 1, size: size)
            return .integer(size == 8 ? Int64(bitPattern: value) : Int64(value))
        case 0x2:
            guard info == 2 || info == 3 else { break }
            let size = 1 << Int(info)
            try require(1 + size, at: start, for: "the real", object: object)
            let bits = readUnsigned(at: start + 1, size: size)
            return .real(size == 4 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits))
        case 0x3:
            guard info == 3 else { break }
            try require(9, at: start, for: "the date", object: object)
            return .date(Double(bitPattern: readUnsigned(at: start + 1, size: 8)))
        case 0x4:
            let (count, contents) = try length(info: info, at: start, object: object)
            try require(count, at: contents, for: "the data", object: object)
            return .data(Array(bytes[contents..<(contents + count)]))
        case 0x5:
            let (count, contents) = try length(info: info, at: start, object: object)
            try require(count, at: contents, for: "the string", object: object)
            var scalars = String.UnicodeScalarView()
            for byte in bytes[contents..<(contents + count)] {
                scalars.append(Unicode.Scalar(byte))
            }
            return .string(String(scalars))
        case 0x6:
            let (count, contents) = try length(info: info, at: start, object: object)
            let (byteCount, overflow) = count.multipliedReportingOverflow(by: 2)
            guard !overflow else { throw malformed("object \(object) has too long a string", at: start) }
            try require(byteCount, at: contents, for: "the string", object: object)
            var units: [UInt16] = []
            units.reserveCapacity(count)
            var index = contents
            while index < contents + byteCount {
                units.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
                index += 2
            }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x8:
            let size = Int(info) + 1
            guard size <= 8 else { break }
            try require(1 + size, at: start, for: "the UID", object: object)
            return .uid(readUnsigned(at: start + 1, size: size))
        default:
            break
        }
        throw malformed("object \(object) has an unknown type marker 0x\(String(marker, radix: 16))", at: start)
    }
}
