import Foundation
import PropertyList

/// Canonical composition of a base letter and one combining mark, for the accents LaTeX writes,
/// from a fixed table (`CompositionTable.swift`): decoding never needs Foundation's
/// normalisation on the common path.
enum Composition {
    /// The precomposed character for `base` followed by `mark`, if Unicode has one. Dotless
    /// ı and ȷ take accents as i and j.
    static func compose(_ base: Unicode.Scalar, _ mark: Unicode.Scalar) -> Unicode.Scalar? {
        let letter: Unicode.Scalar = base == "ı" ? "i" : base == "ȷ" ? "j" : base
        let key = (letter.value, mark.value)
        var low = 0
        var high = pairs.count
        while low < high {
            let middle = (low + high) / 2
            let pair = pairs[middle]
            if (pair.base, pair.mark) < key { low = middle + 1 } else { high = middle }
        }
        guard low < pairs.count, pairs[low].base == key.0, pairs[low].mark == key.1 else { return nil }
        return Unicode.Scalar(pairs[low].composed)
    }
}
