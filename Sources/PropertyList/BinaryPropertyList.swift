/// Apple's binary property lists (`bplist00`): a reader safe on hostile input and a
/// deterministic writer.
public enum BinaryPropertyList {
    /// Reads the binary property list in `bytes`, within `limits`.
    ///
    /// Every offset and size is checked against the input, reference cycles are refused, the
    /// nesting is capped and every visit of a value counts against `limits.maxValues`; the
    /// reader never recurses.
    public static func parse(_ bytes: [UInt8], limits: PropertyListLimits = PropertyListLimits())
        throws(PropertyListError) -> PropertyListValue {
        try limits.checkSize(bytes.count)
        return try BinaryPropertyListReader.read(bytes, limits: limits)
    }

    /// The binary property list for `value`: objects numbered depth first, equal strings and
    /// integers written once, every size the smallest that fits.
    public static func serialize(_ value: PropertyListValue) -> [UInt8] {
        BinaryPropertyListWriter.write(value)
    }
}
