import Foundation
import Testing
@testable import BibModel

/// The fixed composition table is what Foundation's NFC gives for every base and mark
/// `Composition` is asked about, and nothing else.
@Suite("composition table")
struct CompositionTableTests {
    static let marks = Set(LaTeXTables.accentMarks.values.map(\.combining) + LaTeXTables.letterAccentMarks.values.map(\.combining))
    static let bases = (0x41...0x5A).compactMap(Unicode.Scalar.init) + (0x61...0x7A).compactMap(Unicode.Scalar.init)
        + ["Æ", "æ", "Ø", "ø", "Å", "å", "Ç", "ç", "Ü", "ü", "Ö", "ö", "Ä", "ä", "Ï", "ï", "Ô", "ô", "Ê", "ê", "Â", "â", "Ū", "ū", "Ō", "ō",
           "ı", "ȷ"]

    /// NFC's single scalar for `base` + `mark`, if there is one.
    static func composedByFoundation(_ base: Unicode.Scalar, _ mark: Unicode.Scalar) -> Unicode.Scalar? {
        var text = String.UnicodeScalarView()
        text.append(base)
        text.append(mark)
        let composed = String(text).precomposedStringWithCanonicalMapping.unicodeScalars
        return composed.count == 1 ? composed.first : nil
    }

    @Test func theTableIsWhatNFCComposesSortedAndWhole() {
        var expected: [(UInt32, UInt32, UInt32)] = []
        for base in Self.bases where base != "ı" && base != "ȷ" {
            for mark in Self.marks {
                if let scalar = Self.composedByFoundation(base, mark) { expected.append((base.value, mark.value, scalar.value)) }
            }
        }
        expected.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        let table = Composition.pairs.map { ($0.base, $0.mark, $0.composed) }
        let same = table.count == expected.count && zip(table, expected).allSatisfy { $0 == $1 }
        let lines = expected.map { String(format: "(0x%04X, 0x%04X, 0x%04X),", $0.0, $0.1, $0.2) }.joined(separator: "\n")
        #expect(same, "Composition.pairs should be:\n\(lines)")
    }

    @Test func everyBaseAndMarkComposesAsNFCDoes() {
        for base in Self.bases {
            // Dotless ı and ȷ take accents as i and j.
            let letter: Unicode.Scalar = base == "ı" ? "i" : base == "ȷ" ? "j" : base
            for mark in Self.marks.sorted(by: { $0.value < $1.value }) {
                #expect(Composition.compose(base, mark) == Self.composedByFoundation(letter, mark),
                        "U+\(String(base.value, radix: 16)) + U+\(String(mark.value, radix: 16))")
            }
        }
        // Outside the table: nothing composes.
        #expect(Composition.compose("1", "\u{0301}") == nil)
        #expect(Composition.compose("a", "\u{20DD}") == nil)
    }
}
