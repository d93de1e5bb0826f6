import BibModel

/// The screen shown when no library was named and none is configured.
enum WelcomeScreen {
    static func draw(into screen: inout ScreenBuffer) {
        let lines = [
            "bibread — a terminal reader for BibTeX libraries",
            "",
            "No library is open. Open one by naming it:",
            "",
            "    bibread ~/papers/library.bib",
            "",
            "or set a default library in $XDG_CONFIG_HOME/bibread/config.toml",
            "(~/.config/bibread/config.toml):",
            "",
            "    library = \"~/papers/library.bib\"",
            "",
            "Press q to quit, ? for help.",
        ]
        let top = max(0, (screen.height - lines.count) / 2)
        let widest = lines.map { DisplayWidth.of($0) }.max() ?? 0
        let left = max(0, (screen.width - widest) / 2)
        for (index, line) in lines.enumerated() {
            screen.write(line, x: left, y: top + index, style: Style(index == 0 ? .title : .normal, bold: index == 0))
        }
    }
}
