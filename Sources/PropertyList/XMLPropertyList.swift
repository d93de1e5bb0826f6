/// XML property lists (Apple's DTD): a reader safe on hostile input and a writer that writes
/// what Apple's tools write.
public enum XMLPropertyList {
    /// Reads the XML property list in `bytes` (UTF-8, after an optional byte-order mark and
    /// white space), within `limits`.
    ///
    /// The input must be valid UTF-8 and may declare no entities; the streaming parser builds
    /// values with an explicit stack, caps the nesting and counts every value against
    /// `limits.maxValues`. Syntax errors carry the line and column.
    public static func parse(_ bytes: [UInt8], limits: PropertyListLimits = PropertyListLimits())
        throws(PropertyListError) -> PropertyListValue {
        try limits.checkSize(bytes.count)
        return try XMLPropertyListReader.read(bytes, limits: limits)
    }

    /// The XML property list for `value`: the standard prolog and DTD, one element a line,
    /// tabs for indentation.
    public static func serialize(_ value: PropertyListValue) -> [UInt8] {
        XMLPropertyListWriter.write(value)
    }
}
