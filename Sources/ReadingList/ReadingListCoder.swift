import PropertyList

/// Reads and writes reading lists in every format: XML plist, binary plist and JSON.
///
/// Decoding is safe on hostile input: the size, the nesting, the number of nodes and of values
/// are capped by `ReadingListLimits`, the readers never recurse, and no Foundation plist parser
/// is involved (CoreFoundation's recurses without limit).
public enum ReadingListCoder {
    /// Reads a list in any format (found from the content), checking it against `limits`.
    ///
    /// Throws `ReadingListError`: `.unrecognizedFormat`, `.malformed` (syntax, with a location),
    /// `.invalid` (every error of the tree, with paths) or `.limitExceeded`.
    public static func decode(_ bytes: [UInt8], limits: ReadingListLimits = ReadingListLimits()) throws -> DecodedReadingList {
        guard bytes.count <= limits.maxBytes else {
            throw ReadingListError.limitExceeded("the list is \(bytes.count) bytes, more than the limit of \(limits.maxBytes)")
        }
        guard let format = detectFormat(bytes) else {
            let blank = bytes.allSatisfy { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
            throw ReadingListError.unrecognizedFormat(blank
                ? "the input is empty"
                : "the input is neither a property list (XML or binary) nor JSON")
        }
        let value: PropertyListValue
        do {
            switch format {
            case .binary: value = try BinaryPropertyList.parse(bytes, limits: limits.propertyListLimits)
            case .xml: value = try XMLPropertyList.parse(bytes, limits: limits.propertyListLimits)
            case .json: value = try JSONReader.read(bytes, limits: limits)
            }
        } catch let error as PropertyListError {
            throw ReadingListError(error)
        }
        let (list, warnings) = try TreeDecoder.decode(value, limits: limits)
        return DecodedReadingList(list: list, format: format, warnings: warnings)
    }

    /// Writes `list` in `format`. The output is deterministic (keys in a fixed order) and
    /// `decode` gives the list back, except that page notes are written only when the list
    /// includes them.
    public static func encode(_ list: ReadingList, as format: ReadingListFormat) -> [UInt8] {
        let tree = TreeEncoder.encode(list)
        switch format {
        case .xml: return XMLPropertyList.serialize(tree)
        case .binary: return BinaryPropertyList.serialize(tree)
        case .json: return JSONWriter.write(tree)
        }
    }

    /// The format of `bytes` from their start: `bplist…` is binary; `<?xml`, `<!DOCTYPE plist`,
    /// `<plist` or `<!--` (after an optional UTF-8 byte-order mark and white space) is XML;
    /// `{` or `[` is JSON. Nil for anything else, including empty input.
    public static func detectFormat(_ bytes: [UInt8]) -> ReadingListFormat? {
        if bytes.starts(with: Array("bplist".utf8)) { return .binary }
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        guard index < bytes.count else { return nil }
        let rest = bytes[index...]
        switch rest.first {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return .json
        case UInt8(ascii: "<"):
            let head = String(decoding: rest.prefix(15), as: UTF8.self).lowercased()
            return ["<?xml", "<!doctype plist", "<plist", "<!--"].contains { head.hasPrefix($0) } ? .xml : nil
        default:
            return nil
        }
    }
}
