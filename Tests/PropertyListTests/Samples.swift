import PropertyList
import Testing

/// A tree with every kind of value both formats and plistlib share, written twice: as Python
/// and as the value our readers should give (keys sorted, as plistlib writes them).
enum Samples {
    static let python = """
        {'array': [1, 'two', [3.5, []], {}],
         'data': bytes(range(256)),
         'date': datetime.datetime(2024, 1, 31, 12, 0, 0),
         'dict': {'nested': {'deeper': [True, False]}},
         'empty': '',
         'false': False,
         'integers': [0, 1, -1, 255, 256, 65535, 65536, 2 ** 31, 2 ** 32, -2 ** 63, 2 ** 63 - 1],
         'reals': [0.5, -1.25, 1e300, 5e-324, float('inf')],
         'strings': ['ascii', 'été 日本 📚', '<&> "quoted" \\'single\\'', 'tab\\there\\nnewline', 'x' * 300],
         'true': True}
        """

    static let value: PropertyListValue = .dictionary(PropertyListDictionary([
        entry("array", .array([.integer(1), .string("two"), .array([.real(3.5), .array([])]), .dictionary(PropertyListDictionary())])),
        entry("data", .data((0...255).map { UInt8($0) })),
        entry("date", .date(728_395_200)),
        entry("dict", .dictionary(PropertyListDictionary([
            entry("nested", .dictionary(PropertyListDictionary([entry("deeper", .array([.boolean(true), .boolean(false)]))]))),
        ]))),
        entry("empty", .string("")),
        entry("false", .boolean(false)),
        entry("integers", .array([0, 1, -1, 255, 256, 65535, 65536, 1 << 31, 1 << 32, Int64.min, Int64.max].map { .integer($0) })),
        entry("reals", .array([0.5, -1.25, 1e300, 5e-324, .infinity].map { .real($0) })),
        entry("strings", .array(["ascii", "été 日本 📚", "<&> \"quoted\" 'single'", "tab\there\nnewline",
                                 String(repeating: "x", count: 300)].map { .string($0) })),
        entry("true", .boolean(true)),
    ]))

    static func entry(_ key: String, _ value: PropertyListValue) -> PropertyListDictionary.Entry {
        PropertyListDictionary.Entry(key: key, value: value)
    }
}

/// The entry points of one format, so that tests can run over both.
struct Format: Sendable, CustomStringConvertible {
    let format: PropertyListFormat
    /// plistlib's name for the format.
    let python: String

    static let xml = Format(format: .xml, python: "FMT_XML")
    static let binary = Format(format: .binary, python: "FMT_BINARY")
    static let both = [xml, binary]

    var description: String { format.rawValue }

    func parse(_ bytes: [UInt8], limits: PropertyListLimits = PropertyListLimits()) throws(PropertyListError) -> PropertyListValue {
        switch format {
        case .xml: return try XMLPropertyList.parse(bytes, limits: limits)
        case .binary: return try BinaryPropertyList.parse(bytes, limits: limits)
        }
    }

    func serialize(_ value: PropertyListValue) -> [UInt8] {
        format == .xml ? XMLPropertyList.serialize(value) : BinaryPropertyList.serialize(value)
    }
}

/// The `PropertyListError` `body` throws, or nil when it returns (any other error is an issue).
func propertyListError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> PropertyListError? {
    do {
        try body()
        return nil
    } catch let error as PropertyListError {
        return error
    } catch {
        Issue.record("expected a PropertyListError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
