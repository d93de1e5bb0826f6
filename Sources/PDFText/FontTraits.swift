/// What a font's name says about it.
struct FontTraits: Equatable {
    /// Every character as wide as the next (typewriter): code, file names, commands.
    var isMonospace = false
    /// Bold, black, heavy or semibold.
    var isBold = false

    /// The traits of the font named `name` (a PDF font name such as "ABCDEF+CMTT10",
    /// "LMMono10-Regular", "CourierNewPS-BoldMT" or "LinBiolinumOB"). Monotype's fonts
    /// ("MonotypeCorsiva") and "ArialUnicodeMS" are not typewriter fonts.
    init(fontNamed name: String) {
        var base = Substring(name)
        if let plus = base.firstIndex(of: "+") { base = base[base.index(after: plus)...] }
        let lowered = base.lowercased()
        let family = lowered.split(separator: "-", maxSplits: 1).first.map(String.init) ?? lowered
        let familyLetters = family.reversed().drop { $0.isNumber }.reversed()
        let monotype = lowered.replacing("monotype", with: "")
        isMonospace = ["mono", "nimbusmon", "courier", "typewriter", "consol", "menlo", "sourcecode", "firacode", "cascadia"]
            .contains { monotype.contains($0) }
            // TeX's typewriter fonts: CMTT10, CMSLTT10, CMITT10, ECTT1000, SFTT1000, txtt.
            || String(familyLetters).hasSuffix("tt")
        isBold = ["bold", "black", "heavy", "semibold", "demi"].contains { lowered.contains($0) }
            // Computer Modern's bold fonts (CMBX12, CMB10, CMBXTI10); Libertine's and Biolinum's
            // bold cuts (LinBiolinumOB, LinLibertineOBI).
            || family.hasPrefix("cmb")
            || (family.hasPrefix("lin") && (familyLetters.reversed().starts(with: "bo") || familyLetters.reversed().starts(with: "ibo")))
    }
}
