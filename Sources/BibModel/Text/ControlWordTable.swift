/// Every control word the LaTeX decoder knows (`LaTeXTables`), looked up by its bytes: one
/// hash of the name and a compare, no String made and no dictionary probed per table.
///
/// Built once from `LaTeXTables`; its memory lives as long as the process.
final class ControlWordTable: @unchecked Sendable {
    /// The table the decoder uses.
    static let shared = ControlWordTable()

    /// The commands with a meaning of their own (not in a symbol table), read by `Decoder`.
    enum Special: UInt8 {
        case none
        /// `\href{url}{text}`: the URL is skipped, the text shown.
        case href
        /// `\noopsort{x}`, `\nocite`, `\index`, `\label`: the argument is skipped.
        case skipArgument
        /// `\enquote{x}`, `\mkbibquote{x}`: the argument in curly quotes.
        case quote
        /// `\frac{a}{b}` (in math).
        case fraction
        /// `\sqrt{x}` (in math).
        case squareRoot
        /// `\mathbb{R}` and its kin.
        case doubleStruck
    }

    /// UTF-8 text kept in the table: `start` and `count` in `texts`; a negative count is "none".
    struct Text {
        let start: Int32
        let count: Int32
        static let none = Text(start: 0, count: -1)
        var exists: Bool { count >= 0 }
    }

    /// What one control word means, from every table at once.
    struct Meaning {
        /// Index in `letterAccents`, or -1: `\v`, `\c`, `\H`, ...
        let letterAccent: Int8
        /// Text in any mode (`symbols`).
        let symbol: Text
        /// Text of a math symbol (`mathSymbols`).
        let mathSymbol: Text
        /// The argument is shown as it is (`\emph{x}`).
        let isTransparent: Bool
        /// A style declaration that is dropped (`{\em x}`).
        let isDeclaration: Bool
        let special: Special
    }

    /// The accents of `letterAccent`.
    let letterAccents: [LaTeXTables.Accent]

    private let slotMask: Int
    /// Per slot, an index in `meanings` (and `nameStarts`), or -1.
    private let slots: UnsafeMutablePointer<Int32>
    private let names: UnsafeMutablePointer<UInt8>
    /// Where each name starts in `names`; one more than there are names, for the last one's end.
    private let nameStarts: UnsafeMutablePointer<Int32>
    private let meanings: UnsafeMutablePointer<Meaning>
    private let texts: UnsafeMutablePointer<UInt8>
    private let slotCount: Int
    private let nameCount: Int

    private init() {
        var allNames = Set(LaTeXTables.symbols.keys).union(LaTeXTables.mathSymbols.keys)
            .union(LaTeXTables.transparentCommands).union(LaTeXTables.declarations)
            .union(LaTeXTables.letterAccentMarks.keys)
        let specials: [String: Special] = [
            "href": .href, "noopsort": .skipArgument, "nocite": .skipArgument, "index": .skipArgument,
            "label": .skipArgument, "enquote": .quote, "mkbibquote": .quote, "frac": .fraction,
            "sqrt": .squareRoot, "mathbb": .doubleStruck, "mathbbm": .doubleStruck, "mathds": .doubleStruck,
        ]
        allNames.formUnion(specials.keys)
        let sortedNames = allNames.sorted()
        let accentNames = LaTeXTables.letterAccentMarks.keys.sorted()
        letterAccents = accentNames.compactMap { LaTeXTables.letterAccentMarks[$0] }

        var textBytes: [UInt8] = []
        func text(_ value: String?) -> Text {
            guard let value else { return .none }
            let start = Int32(textBytes.count)
            textBytes.append(contentsOf: value.utf8)
            return Text(start: start, count: Int32(value.utf8.count))
        }
        var nameBytes: [UInt8] = []
        var starts: [Int32] = []
        var allMeanings: [Meaning] = []
        for name in sortedNames {
            starts.append(Int32(nameBytes.count))
            nameBytes.append(contentsOf: name.utf8)
            allMeanings.append(Meaning(
                letterAccent: Int8(accentNames.firstIndex(of: name) ?? -1),
                symbol: text(LaTeXTables.symbols[name]),
                mathSymbol: text(LaTeXTables.mathSymbols[name]),
                isTransparent: LaTeXTables.transparentCommands.contains(name),
                isDeclaration: LaTeXTables.declarations.contains(name),
                special: specials[name] ?? .none))
        }
        starts.append(Int32(nameBytes.count))

        var size = 16
        while size < sortedNames.count * 4 { size *= 2 }
        slotCount = size
        slotMask = size - 1
        nameCount = sortedNames.count
        slots = .allocate(capacity: size)
        slots.initialize(repeating: -1, count: size)
        names = .allocate(capacity: max(1, nameBytes.count))
        names.initialize(from: nameBytes, count: nameBytes.count)
        nameStarts = .allocate(capacity: starts.count)
        nameStarts.initialize(from: starts, count: starts.count)
        meanings = .allocate(capacity: max(1, allMeanings.count))
        meanings.initialize(from: allMeanings, count: allMeanings.count)
        texts = .allocate(capacity: max(1, textBytes.count))
        texts.initialize(from: textBytes, count: textBytes.count)
        for (index, name) in sortedNames.enumerated() {
            var copy = name
            var slot = copy.withUTF8 { ControlWordTable.hash($0) } & slotMask
            while slots[slot] >= 0 { slot = (slot + 1) & slotMask }
            slots[slot] = Int32(index)
        }
    }

    deinit {
        slots.deallocate()
        names.deallocate()
        nameStarts.deallocate()
        meanings.deallocate()
        texts.deallocate()
    }

    /// The meaning of the control word spelled by `name` (its letters, without `\`), or nil
    /// when it is none the decoder knows.
    func meaning(of name: UnsafeBufferPointer<UInt8>) -> Meaning? {
        guard let base = name.baseAddress else { return nil }
        var slot = ControlWordTable.hash(name) & slotMask
        while true {
            let index = Int(slots[slot])
            if index < 0 { return nil }
            let start = Int(nameStarts[index])
            if Int(nameStarts[index + 1]) - start == name.count && memoryEqual(names + start, base, name.count) {
                return meanings[index]
            }
            slot = (slot + 1) & slotMask
        }
    }

    /// The bytes of a text of the table.
    func bytes(of text: Text) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: texts + Int(text.start), count: Int(max(0, text.count)))
    }

    private func memoryEqual(_ left: UnsafePointer<UInt8>, _ right: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        for offset in 0..<count where left[offset] != right[offset] { return false }
        return true
    }

    /// A hash of a short ASCII name, mixed so that its low bits pick the slot.
    private static func hash(_ name: UnsafeBufferPointer<UInt8>) -> Int {
        var value: UInt32 = 2_166_136_261
        for byte in name { value = (value ^ UInt32(byte)) &* 16_777_619 }
        return Int(value ^ (value >> 15))
    }
}
