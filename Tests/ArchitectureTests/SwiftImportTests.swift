import Testing

/// The import scanner reads what the compiler reads, and nothing it does not.
@Suite struct SwiftImportTests {
    @Test func readsEveryFormOfImport() {
        let source = """
            import Foundation
            @testable import Reader
            @_implementationOnly import CCurses
            @preconcurrency @_spi(Internal) public import GRDB
            internal import struct Glibc.stat
            import func Darwin.C.exit
              import `TOMLKit`; import Dispatch
            """
        #expect(SwiftImport.all(in: source) == [
            SwiftImport(module: "Foundation", line: 1), SwiftImport(module: "Reader", line: 2),
            SwiftImport(module: "CCurses", line: 3), SwiftImport(module: "GRDB", line: 4),
            SwiftImport(module: "Glibc", line: 5), SwiftImport(module: "Darwin", line: 6),
            SwiftImport(module: "TOMLKit", line: 7), SwiftImport(module: "Dispatch", line: 7),
        ])
    }

    @Test func skipsCommentsAndStrings() {
        let quotes = String(repeating: "\"", count: 3)
        let source = """
            // import CommentedOut
            /* import Block
               /* nested */ import StillInTheBlock */
            let script = \(quotes)
                import base64, json
                "\\(value)"
                import sys
                \(quotes)
            let raw = #\(quotes)
                import RawLines "\(quotes)" not the end
                \(quotes)#
            let call = "\\(f("import Quoted"))"
            import PDFText // import Trailing
            """
        #expect(SwiftImport.all(in: source) == [SwiftImport(module: "PDFText", line: 13)])
    }

    @Test func aWordStartingWithImportIsNoImport() {
        #expect(SwiftImport.all(in: "importer = 1\nlet x = imports\nimport\n").isEmpty)
    }
}
