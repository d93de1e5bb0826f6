import Testing
@testable import BibModel

/// The one table the decoder looks control words up in holds exactly what the separate tables
/// of `LaTeXTables` say, name by name, and nothing else.
@Suite("control word table")
struct ControlWordTableTests {
    private func meaning(_ name: String) -> ControlWordTable.Meaning? {
        var name = name
        return name.withUTF8 { ControlWordTable.shared.meaning(of: $0) }
    }

    private func text(_ value: ControlWordTable.Text) -> String? {
        value.exists ? String(decoding: ControlWordTable.shared.bytes(of: value), as: UTF8.self) : nil
    }

    @Test func everyNameOfEveryTableHasItsMeaning() throws {
        let names = Set(LaTeXTables.symbols.keys).union(LaTeXTables.mathSymbols.keys)
            .union(LaTeXTables.transparentCommands).union(LaTeXTables.declarations)
            .union(LaTeXTables.letterAccentMarks.keys)
        #expect(names.count > 300)
        for name in names {
            let found = try #require(meaning(name), "\\\(name) is missing")
            #expect(text(found.symbol) == LaTeXTables.symbols[name], "\\\(name)")
            #expect(text(found.mathSymbol) == LaTeXTables.mathSymbols[name], "\\\(name)")
            #expect(found.isTransparent == LaTeXTables.transparentCommands.contains(name), "\\\(name)")
            #expect(found.isDeclaration == LaTeXTables.declarations.contains(name), "\\\(name)")
            let accent = found.letterAccent >= 0 ? ControlWordTable.shared.letterAccents[Int(found.letterAccent)] : nil
            #expect(accent?.combining == LaTeXTables.letterAccentMarks[name]?.combining, "\\\(name)")
        }
    }

    @Test(arguments: [("href", ControlWordTable.Special.href), ("noopsort", .skipArgument), ("enquote", .quote),
                      ("frac", .fraction), ("sqrt", .squareRoot), ("mathbb", .doubleStruck), ("emph", .none)])
    func commandsWithAMeaningOfTheirOwn(_ name: String, _ special: ControlWordTable.Special) throws {
        #expect(try #require(meaning(name)).special == special)
    }

    /// Prefixes, extensions and other cases of known names are not known.
    @Test(arguments: ["", "T", "Te", "TeXX", "tex", "Emph", "emphx", "alph", "alphas", "ss ", "unknowncommand"])
    func namesNotInAnyTableAreUnknown(_ name: String) {
        #expect(meaning(name) == nil)
    }
}
