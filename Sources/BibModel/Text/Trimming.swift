extension String {
    /// The text without leading and trailing ASCII white space (space, tab, CR, LF); much faster
    /// than Foundation's `trimmingCharacters(in:)`, which bridges through NSString on Linux.
    public var trimmedASCII: String { self[...].trimmedASCII }
}

extension Substring {
    /// The text without leading and trailing ASCII white space (space, tab, CR, LF).
    public var trimmedASCII: String {
        let utf8 = self.utf8
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end, isTrimmable(utf8[start]) { start = utf8.index(after: start) }
        while end > start, isTrimmable(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        if start == utf8.startIndex && end == utf8.endIndex && startIndex == base.startIndex && endIndex == base.endIndex {
            return base
        }
        return String(decoding: utf8[start..<end], as: UTF8.self)
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The bytes without leading and trailing ASCII white space, the same as
    /// `String.trimmedASCII` takes off.
    var trimmedASCII: UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = count
        while start < end, isTrimmable(self[start]) { start += 1 }
        while end > start, isTrimmable(self[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: self[start..<end])
    }
}

@inline(__always) private func isTrimmable(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}
