import BibModel
import BibreadTestSupport
import Testing
@testable import Reader
@testable import ReaderCore

/// The reader's screens rendered from state, compared as text at 80×24 and 120×40.
@Suite("rendered screens")
struct ScreenTests {
    static let sizes = [(80, 24), (120, 40)]

    @Test(arguments: sizes)
    func list(width: Int, height: Int) throws {
        let harness = ReaderHarness.samples(width: width, height: height)
        try ScreenSnapshot.check(harness, named: "list-\(width)x\(height)")
    }

    @Test(arguments: sizes)
    func groupsWithAnExpandedFieldGroup(width: Int, height: Int) throws {
        var harness = ReaderHarness.samples(width: width, height: height)
        harness.press("S-Tab")
        #expect(harness.state.focus == .groups)
        // Down to "Years", then expand it.
        while harness.state.groupRows[harness.state.groupCursor.selected].name != "Years" { harness.press("j") }
        harness.press("l")
        try ScreenSnapshot.check(harness, named: "groups-\(width)x\(height)")
    }

    @Test(arguments: sizes)
    func detailsOfTheSelectedReference(width: Int, height: Int) throws {
        var harness = ReaderHarness.samples(width: width, height: height)
        harness.press("/")
        harness.type("shannon")
        harness.press("Enter", "Tab")
        #expect(harness.state.focus == .details)
        try ScreenSnapshot.check(harness, named: "details-\(width)x\(height)")
    }

    @Test(arguments: sizes)
    func searchAsYouType(width: Int, height: Int) throws {
        var harness = ReaderHarness.samples(width: width, height: height)
        harness.press("/")
        harness.type("author:knuth -web")
        try ScreenSnapshot.check(harness, named: "search-\(width)x\(height)")
    }

    @Test(arguments: sizes)
    func help(width: Int, height: Int) throws {
        var harness = ReaderHarness.samples(width: width, height: height)
        harness.press("?")
        try ScreenSnapshot.check(harness, named: "help-\(width)x\(height)")
    }

    @Test func narrowTerminalShowsOnePaneAtATime() throws {
        var harness = ReaderHarness.samples(width: 60, height: 20)
        try ScreenSnapshot.check(harness, named: "narrow-list-60x20")
        harness.press("S-Tab")
        try ScreenSnapshot.check(harness, named: "narrow-groups-60x20")
    }

    @Test(arguments: sizes)
    func longCJKAndAccentedNames(width: Int, height: Int) throws {
        let library = Fixtures.library("""
        @article{yamada2019, author = {山田 太郎 and 佐藤 花子 and 鈴木 一郎}, title = {日本語組版における禁則処理と行分割アルゴリズムの長い題名についての覚え書き}, journal = {情報処理学会論文誌}, year = 2019}
        @book{erdos, author = {Pál Erd{\\H{o}}s and Alfr\\'{e}d R\\'enyi}, title = {\\"Uber die Entwicklung zuf\\"alliger Graphen mit sehr langen Titeln, die abgeschnitten werden m\\"ussen}, publisher = {Akad\\'emiai Kiad\\'o}, year = 1960}
        @misc{combining, author = {Zoë Bergström and Ngô Bảo Châu}, title = {Cafe\u{301} and cafe\u{301}: é written as e + U+0301, and emoji 📚 in a title}, year = 2024}
        """)
        let harness = ReaderHarness(library: library, width: width, height: height)
        try ScreenSnapshot.check(harness, named: "cjk-\(width)x\(height)")
        // No row is wider than the terminal, measured by display width.
        for line in harness.screen.split(separator: "\n") { #expect(DisplayWidth.of(line) <= width) }
    }

    @Test func welcomeScreenWhenNoLibraryIsOpen() throws {
        let state = AppState(library: nil, paths: [], width: 80, height: 24)
        try ScreenSnapshot.check(state.render(), named: "welcome-80x24")
    }

    @Test func readingViewShowsThePageText() throws {
        var harness = ReaderHarness.samples(width: 80, height: 24)
        harness.press("/")
        harness.type("key:knuth1984texbook")
        harness.press("Enter", "Enter")
        let reading = try #require(harness.state.reading)
        #expect(reading.pageCount == 5)
        #expect(harness.screen.contains("A Short Tour of the TeX Typesetting"))
        #expect(harness.screen.contains("p. i (1 of 5) · 20% · The TeXbook"))
        harness.press("]")
        #expect(harness.state.reading?.page == 2)
        harness.press("q")
        #expect(harness.state.reading == nil)
    }
}
