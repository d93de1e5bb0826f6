import BibModel
import Foundation

/// Draws a framed box and returns the rectangle inside the frame.
enum Box {
    static func draw(title: String, width: Int, height: Int, footer: String = "", into screen: inout ScreenBuffer) -> Rect {
        let boxWidth = min(screen.width, width)
        let boxHeight = min(screen.height - 2, height)
        let x = (screen.width - boxWidth) / 2
        let y = (screen.height - boxHeight) / 2
        let style = Style(.overlay)
        screen.fill(x: x, y: y, width: boxWidth, height: boxHeight, style: style)
        let horizontal = String(repeating: "─", count: max(0, boxWidth - 2))
        screen.write("┌" + horizontal + "┐", x: x, y: y, style: Style(.overlay))
        screen.write("└" + horizontal + "┘", x: x, y: y + boxHeight - 1, style: Style(.overlay))
        for row in (y + 1)..<max(y + 1, y + boxHeight - 1) {
            screen.write("│", x: x, y: row, style: style)
            screen.write("│", x: x + boxWidth - 1, y: row, style: style)
        }
        screen.write(" \(DisplayWidth.truncate(title, to: max(0, boxWidth - 6))) ", x: x + 2, y: y, style: Style(.overlay, bold: true))
        if !footer.isEmpty && DisplayWidth.of(footer) + 6 < boxWidth {
            screen.write(" \(footer) ", x: x + boxWidth - DisplayWidth.of(footer) - 4, y: y + boxHeight - 1, style: Style(.overlay))
        }
        return Rect(x: x + 2, y: y + 1, width: boxWidth - 4, height: boxHeight - 2)
    }

    /// A box of text lines (a question and its answers); `bold` says which lines are bold.
    static func draw(title: String, lines: [String], width: Int, bold: (Int) -> Bool, into screen: inout ScreenBuffer) {
        let inner = draw(title: title, width: width, height: lines.count + 2, into: &screen)
        for (index, line) in lines.enumerated() where index < inner.height {
            screen.write(line, x: inner.x, y: inner.y + index, style: Style(.overlay, bold: bold(index)), limit: inner.width)
        }
    }
}
