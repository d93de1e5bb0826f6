import Testing
@testable import BibModel

/// The decoder's table of the bytes that end a run of ordinary text.
@Suite("LaTeX special bytes")
struct LaTeXSpecialByteTests {
    @Test func theTableHoldsExactlyTheSpecialBytes() {
        let special = Set("{}\\$~ \t\n\r-`'^_".utf8)
        #expect(special.count == 14)
        for byte in UInt8.min...UInt8.max {
            #expect(LaTeX.runEnders[Int(byte)] == special.contains(byte), "byte \(byte)")
        }
    }
}
