/// What a font's name says about it.
struct FontTraits: Equatable {
    /// Every character as wide as the next (typewriter): code, file names, commands.
    var isMonospace = false
    /// Bold, black, heavy or semibold.
    var isBold = false

    /// What makes a font a typewriter font, in its lower-cased name ("monotype" taken out).
    private static let monospaceWords = ["mono", "nimbusmon", "courier", "typewriter", "consol", "menlo", "sourcecode", "firacode", "cascadia"]
    /// What makes a font bold, in its lower-cased name.
    private static let boldWords = ["bold", "black", "heavy", "semibold", "demi"]

    /// Traits given as they are.
    init(isMonospace: Bool = false, isBold: Bool = false) {
        self.isMonospace = isMonospace
        self.isBold = isBold
    }

    /// The traits of the font named `name` (a PDF font name such as "ABCDEF+CMTT10",
    /// "LMMono10-Regular", "CourierNewPS-BoldMT" or "LinBiolinumOB"). Monotype's fonts
    /// ("MonotypeCorsiva") and "ArialUnicodeMS" are not typewriter fonts.
    init(fontNamed name: String) {
        self = Self.asciiTraits(ofFontNamed: name) ?? FontTraits(fontNamedByCharacters: name)
    }

    /// `init(fontNamed:)` character by character, for any name (the straightforward path, which
    /// tests compare `asciiTraits(ofFontNamed:)` with).
    init(fontNamedByCharacters name: String) {
        var base = Substring(name)
        if let plus = base.firstIndex(of: "+") { base = base[base.index(after: plus)...] }
        let lowered = base.lowercased()
        let family = lowered.split(separator: "-", maxSplits: 1).first.map(String.init) ?? lowered
        let familyLetters = family.reversed().drop { $0.isNumber }.reversed()
        let monotype = lowered.replacing("monotype", with: "")
        isMonospace = Self.monospaceWords.contains { monotype.contains($0) }
            // TeX's typewriter fonts: CMTT10, CMSLTT10, CMITT10, ECTT1000, SFTT1000, txtt.
            || String(familyLetters).hasSuffix("tt")
        isBold = Self.boldWords.contains { lowered.contains($0) }
            // Computer Modern's bold fonts (CMBX12, CMB10, CMBXTI10); Libertine's and Biolinum's
            // bold cuts (LinBiolinumOB, LinLibertineOBI).
            || family.hasPrefix("cmb")
            || (family.hasPrefix("lin") && (familyLetters.reversed().starts(with: "bo") || familyLetters.reversed().starts(with: "ibo")))
    }

    /// `init(fontNamed:)` of an ASCII name, byte by byte (the String path cost ~300 k
    /// instructions a font, most of a reflowed page's structure); nil when `name` is not ASCII.
    /// In ASCII each character is one byte but CR LF, and no word looked for holds either.
    static func asciiTraits(ofFontNamed name: String) -> FontTraits? {
        var name = name
        return name.withUTF8 { bytes -> FontTraits? in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            let dash = UInt8(ascii: "-")
            let start = bytes.firstIndex(of: UInt8(ascii: "+")).map { $0 + 1 } ?? 0
            let lowered = bytes[start...].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            // The family: what comes before the first dash, as `split` gives it (empty pieces
            // left out, so the first run of bytes that are not dashes), else the whole name.
            var family = lowered[...]
            if let first = lowered.firstIndex(where: { $0 != dash }) {
                family = lowered[first..<(lowered[first...].firstIndex(of: dash) ?? lowered.endIndex)]
            }
            var familyLetters = family
            while let last = familyLetters.last, last >= 0x30 && last <= 0x39 { familyLetters.removeLast() }
            let monotype = removing(Array("monotype".utf8), from: lowered)
            var traits = FontTraits()
            traits.isMonospace = monospaceWords.contains { contains(monotype[...], Array($0.utf8)) }
                || ends(familyLetters, with: "tt")
            traits.isBold = boldWords.contains { contains(lowered[...], Array($0.utf8)) }
                || family.starts(with: "cmb".utf8)
                || (family.starts(with: "lin".utf8)
                    && (ends(familyLetters, with: "ob") || ends(familyLetters, with: "obi")))
            return traits
        }
    }

    /// Whether `bytes` end with `suffix`.
    private static func ends(_ bytes: ArraySlice<UInt8>, with suffix: String) -> Bool {
        bytes.count >= suffix.utf8.count && bytes.suffix(suffix.utf8.count).elementsEqual(suffix.utf8)
    }

    /// Whether `needle` occurs in `haystack`.
    private static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        var index = haystack.startIndex
        while index + needle.count <= haystack.endIndex {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }

    /// `haystack` with every occurrence of `needle` taken out, left to right (as `replacing`).
    private static func removing(_ needle: [UInt8], from haystack: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(haystack.count)
        var index = 0
        while index < haystack.count {
            if index + needle.count <= haystack.count, haystack[index..<(index + needle.count)].elementsEqual(needle) {
                index += needle.count
            } else {
                result.append(haystack[index])
                index += 1
            }
        }
        return result
    }
}
