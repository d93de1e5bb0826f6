import Foundation

/// `@string` macros shared by the files of one library, names folded to lower case.
public struct MacroTable: Sendable {
    var values: [String: String]

    /// No macros at all, not even the months: a later chunk of a file starts so (see `DeferredMacros`).
    static var empty: MacroTable { MacroTable(values: [:]) }

    private init(values: [String: String]) { self.values = values }

    /// The predefined month macros `jan` ... `dec`.
    public init() {
        let months = ["January", "February", "March", "April", "May", "June", "July",
                      "August", "September", "October", "November", "December"]
        let names = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        values = Dictionary(uniqueKeysWithValues: zip(names, months))
    }

    /// The expansion of a macro, if defined.
    public subscript(name: String) -> String? { values[name.lowercased()] }
}

extension MacroTable {
    /// True for the lower-case name of a month macro (`jan` … `dec`): its three bytes as one
    /// number, looked up among twelve (comparing Strings costs far more).
    static func isMonth(_ name: String) -> Bool {
        guard name.utf8.count == 3 else { return false }
        return monthCodes.contains(threeByteCode(name))
    }

    private static let monthCodes = Set(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        .map(threeByteCode))

    /// The UTF-8 bytes of a short name packed into one number.
    private static func threeByteCode(_ name: String) -> UInt32 {
        name.utf8.reduce(0) { $0 << 8 | UInt32($1) }
    }
}
