import GRDB

/// The folded UTF-8 of non-ASCII scalars, computed once each (see `ScalarFolding`).
struct FoldCache {
    private var known: [UInt32: [UInt8]] = [:]

    mutating func folding(of value: UInt32) -> [UInt8] {
        if let folded = known[value] { return folded }
        let folded = Unicode.Scalar(value).map(ScalarFolding.foldedBytes) ?? [0x20]
        known[value] = folded
        return folded
    }
}
