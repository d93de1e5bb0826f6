import BibModel
import Foundation

/// The help screen, generated from the action table and the live key map.
enum HelpOverlay {
    /// The columns of the keys before each description.
    static let keyColumn = 18
    /// The widest box: wide enough for every description on one line; narrower screens get
    /// a box as wide as they are, with the descriptions wrapped.
    static let widestBox = 100

    /// The help's lines for a box `width` columns wide inside: descriptions wrap under
    /// themselves, and keys too many for their column get a line of their own.
    static func lines(_ state: AppState, width: Int) -> [(String, Style)] {
        var lines: [(String, Style)] = []
        let plain = Style(.overlay)
        let descriptionIndent = 2 + keyColumn + 1
        func row(keys: String, help: String) {
            let room = max(10, width - descriptionIndent)
            var wrapped = DisplayWidth.wrap(help, to: room)
            var first = "  " + DisplayWidth.pad(keys, to: keyColumn) + " "
            if DisplayWidth.of(keys) > keyColumn {
                lines.append(("  " + keys, plain))
                first = String(repeating: " ", count: descriptionIndent)
            }
            lines.append((first + wrapped.removeFirst(), plain))
            for more in wrapped { lines.append((String(repeating: " ", count: descriptionIndent) + more, plain)) }
        }
        func text(_ paragraph: String, indent: Int) {
            for line in DisplayWidth.wrap(paragraph, to: max(10, width - indent)) {
                lines.append((String(repeating: " ", count: indent) + line, plain))
            }
        }
        func section(_ scope: ActionScope) {
            if !lines.isEmpty { lines.append(("", plain)) }
            lines.append((scope.rawValue, Style(.overlay, bold: true)))
            for definition in ActionTable.definitions(in: scope) {
                let keys = state.keymap.keys(for: definition.action).map(\.description).joined(separator: " ")
                row(keys: keys.isEmpty ? "(unbound)" : keys, help: definition.help)
            }
        }
        // The views' keys a row each; the keys of overlays, prompts and background work a
        // paragraph per scope (`Prompts: Enter answer · Esc C-g close …`).
        for scope in ActionScope.allCases where scope.isView { section(scope) }
        lines.append(("", plain))
        for scope in ActionScope.allCases where !scope.isView {
            var items = ActionTable.definitions(in: scope).map { definition -> String in
                let keys = state.keymap.keys(for: definition.action).map(\.description).joined(separator: " ")
                return (keys.isEmpty ? "(unbound)" : keys) + " " + definition.help
            }
            if let other = scope.otherKeys { items.append(other) }
            for line in packed(items, heading: scope.rawValue + ":", width: width) { lines.append((line, plain)) }
        }
        lines.append(("", plain))
        lines.append(("Marks", Style(.overlay, bold: true)))
        text("● has a PDF here   ○ its PDF is on the remote only   ✓ read   ★ bookmarked", indent: 2)
        lines.append(("", plain))
        lines.append(("Search", Style(.overlay, bold: true)))
        for paragraph in ["Words match by prefix, ignoring case and accents; terms are ANDed.",
                          "field:word (author, title, year, keywords, journal, type, key…);",
                          "-word excludes; \"a phrase\"; year:1984..1990; OR between terms."] {
            text(paragraph, indent: 2)
        }
        lines.append(("", plain))
        text("Keys can be changed in ~/.config/bibread/config.toml under [keys].", indent: 0)
        return lines
    }

    /// `heading` and the items after it, joined by " · ", in lines `width` wide: a line breaks
    /// between items (an item longer than a line wraps), the next lines indented by two.
    static func packed(_ items: [String], heading: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = heading
        for (index, item) in items.enumerated() {
            let joined = line + (index == 0 ? " " : " · ") + item
            if DisplayWidth.of(joined) <= width {
                line = joined
                continue
            }
            lines.append(line + (index == 0 ? "" : " ·"))
            let wrapped = DisplayWidth.wrap(item, to: max(10, width - 2))
            lines += wrapped.dropLast().map { "  " + $0 }
            line = "  " + (wrapped.last ?? "")
        }
        lines.append(line)
        return lines
    }

    static func draw(_ state: AppState, into screen: inout ScreenBuffer) {
        let width = min(screen.width, widestBox)
        let content = lines(state, width: max(1, width - 4))
        // (Update's handleHelp works out the same lines to stop scrolling at the last one.)
        let rows = max(1, screen.height - 4)
        let fits = content.count <= rows
        let top = min(state.screen.helpScroll ?? 0, max(0, content.count - rows))
        let footer = fits ? "" : (top + rows < content.count ? "↓ j/k scroll" : "↑ j/k scroll")
        let inner = Box.draw(title: "Help — any other key closes", width: width, height: content.count + 2, footer: footer, into: &screen)
        for row in 0..<inner.height {
            guard top + row < content.count else { break }
            let (text, style) = content[top + row]
            screen.write(text, x: inner.x, y: inner.y + row, style: style, limit: inner.width)
        }
    }
}
