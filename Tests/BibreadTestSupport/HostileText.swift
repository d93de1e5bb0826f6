import Foundation

/// Text that attacks a terminal, for the tests that check that nothing from a file or a server
/// reaches one raw (issue 26, item 7): OSC 52 (writes the clipboard), OSC 0 (the window title),
/// CSI 2J (clears the screen), SGR (colours), BEL, DEL and C1 controls (U+009B is CSI and U+009D
/// is OSC in one byte), each with what bibread shows in its place.
public enum HostileText {
    /// What bibread shows for a control character it removes.
    public static let mark = "\u{FFFD}"

    /// A title with an OSC 52 that sets the clipboard to "evil", an OSC 0 that sets the window
    /// title to "pwned", and a CSI 2J that clears the screen.
    public static let title = "Safe\u{1B}]52;c;ZXZpbA==\u{07} title\u{1B}]0;pwned\u{07} and \u{1B}[2J cleared"
    public static let cleanedTitle = "Safe\(mark)]52;c;ZXZpbA==\(mark) title\(mark)]0;pwned\(mark) and \(mark)[2J cleared"

    /// A journal in red (SGR), so its citation line is too.
    public static let journal = "J\u{1B}[31mred"
    public static let cleanedJournal = "J\(mark)[31mred"

    /// DEL, and C1 controls written as UTF-8: CSI (U+009B), OSC (U+009D), ST (U+009C).
    public static let note = "DEL\u{7F} here; CSI \u{9B}31m and OSC \u{9D}0;x\u{9C} end"
    public static let cleanedNote = "DEL\(mark) here; CSI \(mark)31m and OSC \(mark)0;x\(mark) end"

    /// A URL (a verbatim field: its characters are kept as they are) that clears the screen.
    public static let url = "https://example.org/a\u{1B}[2Jb"
    public static let cleanedURL = "https://example.org/a\(mark)[2Jb"

    /// A library with one entry holding all of the above, cite key `evil`, and a plain one after it.
    public static let library = """
        @article{evil,
          title = {\(title)},
          author = {Mallory, Eve},
          journal = {\(journal)},
          year = {2020},
          note = {\(note)},
          url = {\(url)}
        }

        @misc{plain, title = {A plain title}, author = {Knuth, Donald}, year = 1984}

        """

    /// A Windows-1252 file with no declaration (bibread guesses its encoding): 0x9D, 0x8D and 0x90
    /// are undefined in Windows-1252 and keep their Latin-1 meaning, the C1 controls OSC, RI
    /// (reverse line feed) and DCS; 0x9C is `œ` there.
    public static let windows1252Library: [UInt8] =
        Array("@article{w1252,\n  title = {Caf".utf8) + [0xE9] + Array(" ".utf8) + [0x9D] + Array("0;owned".utf8) + [0x9C]
        + Array(" and ".utf8) + [0x8D, 0x90] + Array(" up},\n  year = {2020}\n}\n".utf8)
    public static let cleanedWindows1252Title = "Café \(mark)0;ownedœ and \(mark)\(mark) up"

    /// A file declared Latin-1, where every byte from 0x80 to 0x9F is a C1 control: 0x9B CSI,
    /// 0x9D OSC, 0x9C ST.
    public static let latin1Library: [UInt8] =
        Array("% -*- coding: latin-1 -*-\n@article{latin,\n  title = {Caf".utf8) + [0xE9] + Array(" ".utf8) + [0x9B]
        + Array("31m red ".utf8) + [0x9D] + Array("0;t".utf8) + [0x9C] + Array("},\n  year = {2020}\n}\n".utf8)
    public static let cleanedLatin1Title = "Café \(mark)31m red \(mark)0;t\(mark)"

    /// Every character of `text` a terminal would act on: C0 controls but tab and line feed, DEL,
    /// and C1 controls (U+0080 to U+009F), written as `U+001B` for messages.
    public static func controls(in text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            (scalar.value < 0x20 && scalar != "\t" && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
        }.map { String(format: "U+%04X", $0.value) }
    }

    /// Writes the hostile libraries into `folder`: `evil.bib`, `windows-1252.bib`, `latin-1.bib`.
    public static func writeLibraries(to folder: URL) throws {
        try Data(library.utf8).write(to: folder.appendingPathComponent("evil.bib"))
        try Data(windows1252Library).write(to: folder.appendingPathComponent("windows-1252.bib"))
        try Data(latin1Library).write(to: folder.appendingPathComponent("latin-1.bib"))
    }

    /// An error page that clears the screen, moves the cursor home, sets the window title, then
    /// claims success.
    public static let errorPage = "\u{1B}[2J\u{1B}[H\u{1B}]0;owned\u{07}FAKE: all files downloaded OK\n<html>more</html>\n"
    public static let cleanedErrorPage = "\(mark)[2J\(mark)[H\(mark)]0;owned\(mark)FAKE: all files downloaded OK"
}
