import BibreadServices
import BibreadTestSupport
import Foundation
import Testing

/// `[[library]]` in config.toml: a local library with the path mapping of the machine that wrote
/// its links, beside the `library = …` forms, and its mistakes reported with their places.
@Suite("config.toml [[library]] tables")
struct LibrarySettingTests {
    @Test func aLibraryTableGivesTheFileAndItsMappingWithHomeExpanded() {
        let config = Config.parse("""
        [[library]]
        path = "~/Papers/library.bib"
        [library.path_mapping]
        "/Users/jane/Papers" = "~/Papers"
        "/Volumes/Lab/Shared" = "shared"

        [[library]]
        path = "/srv/other.bib"
        """, path: "/home/u/.config/bibread/config.toml", home: "/home/u")
        #expect(config.problems == [])
        #expect(config.libraries == ["/home/u/Papers/library.bib", "/srv/other.bib"])
        #expect(config.librarySettings == [
            LibrarySetting(path: "/home/u/Papers/library.bib",
                           pathMapping: ["/Users/jane/Papers": "/home/u/Papers", "/Volumes/Lab/Shared": "/home/u/Papers/shared"]),
            LibrarySetting(path: "/srv/other.bib"),
        ])
    }

    @Test func theOtherFormsOfLibraryStillWork() {
        let single = Config.parse("library = \"~/a.bib\"\n", path: "/c/config.toml", home: "/home/u")
        #expect(single.libraries == ["/home/u/a.bib"] && single.problems == [] && single.librarySettings == [])
        let list = Config.parse("library = [\"~/a.bib\", \"b.bib\"]\n", path: "/c/config.toml", home: "/home/u")
        #expect(list.libraries == ["/home/u/a.bib", "/c/b.bib"] && list.problems == [])
    }

    @Test func badTablesAreReportedAtTheirPlaceAndTheRestIsRead() {
        let config = Config.parse("""
        color = false

        [[library]]
        pathh = "~/typo.bib"

        [[library]]
        path = "~/Papers/library.bib"
        colour = "blue"
        [library.path_mapping]
        "Papers" = "~/Papers"
        "/Users/jane/Books" = 3
        "/Users/jane/Papers" = "~/Papers"

        [[library]]
        path = "~/x.bib"
        path_mapping = "~/Papers"
        """, path: "/c/config.toml", home: "/home/u")
        #expect(config.problems.sorted(by: Self.byLine) == [
            "/c/config.toml:3:1: [[library]] 1: needs path = \"…\" (the library's .bib file)",
            "/c/config.toml:8:1: [[library]] 2: unknown key 'colour' (known: path, path_mapping)",
            "/c/config.toml:11:1: [[library]] 2: path_mapping \"/Users/jane/Books\" must be a folder name in quotes",
            "/c/config.toml:10:1: [[library]] 2: path_mapping \"Papers\" must be an absolute folder of the machine that wrote the library, such as \"/Users/jane/Papers\"",
            "/c/config.toml:16:1: [[library]] 3: path_mapping must be a table: \"folder on the other machine\" = \"the same folder here\"",
        ].sorted(by: Self.byLine))
        #expect(config.color == false)
        #expect(config.libraries == ["/home/u/Papers/library.bib", "/home/u/x.bib"])
        #expect(config.librarySettings.first?.pathMapping == ["/Users/jane/Papers": "/home/u/Papers"])
    }

    private static func byLine(_ left: String, _ right: String) -> Bool {
        func line(_ text: String) -> Int { Int(text.split(separator: ":")[1]) ?? 0 }
        return line(left) < line(right)
    }
}
