import BibModel
import BibreadValues

/// The "open with" menu: the apps for the reference, by intention, with install hints for the
/// missing ones that are always shown.
enum OpenWithOverlay {
    static func draw(_ menu: OpenWithMenuState, into screen: inout ScreenBuffer) {
        let intention = menu.intention.map { $0.rawValue.capitalized } ?? "All"
        let title = "Open \(menu.subject) with — \(intention) (Tab: next)"
        let rows = menu.items.map { max(1, $0.count) } ?? 1
        let inner = Box.draw(title: title, width: 84, height: min(rows, max(1, screen.height - 8)) + 2,
                             footer: "Enter runs · Esc closes", into: &screen)
        guard let items = menu.items else {
            screen.write("Looking for installed apps…", x: inner.x, y: inner.y, style: Style(.overlay))
            return
        }
        if items.isEmpty {
            screen.write("No app here serves this; Tab shows other intentions.", x: inner.x, y: inner.y, style: Style(.overlay))
            return
        }
        for row in 0..<inner.height {
            let index = menu.cursor.top + row
            guard index < items.count else { break }
            let item = items[index]
            let selected = index == menu.cursor.selected
            let style = selected ? Style(.selection) : Style(item.isRunnable ? .overlay : .dim)
            screen.fill(x: inner.x, y: inner.y + row, width: inner.width, height: 1, style: style)
            let number = index < 9 ? "\(index + 1) " : "  "
            let intentions = item.entry.intentions.map(\.rawValue).joined(separator: ",")
            let hint = item.isRunnable ? intentions : (item.installHint ?? "not installed")
            let nameRoom = max(0, inner.width - DisplayWidth.of(number) - DisplayWidth.of(hint) - 2)
            screen.write(number + DisplayWidth.truncate(item.entry.name, to: nameRoom), x: inner.x, y: inner.y + row, style: style)
            screen.write(hint, x: inner.x + inner.width - DisplayWidth.of(hint), y: inner.y + row,
                         style: selected ? style : Style(item.isRunnable ? .dim : .error))
        }
    }
}
