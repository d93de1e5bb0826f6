import Reader
import ReaderCore
import Testing

@Suite("ncursesw through CCurses")
struct CursesLibraryTests {
    @Test func linkedAgainstNcurses() {
        #expect(CursesLibrary.version.hasPrefix("ncurses "))
    }

    @Test func colorPairMacroThroughTheShim() {
        // COLOR_PAIR(n) is n shifted into the colour bits (NCURSES_ATTR_SHIFT + 8 = 8).
        #expect(CursesLibrary.colorPairAttribute(1) == 1 << 8)
        #expect(CursesLibrary.colorPairAttribute(3) == 3 << 8)
    }
}
