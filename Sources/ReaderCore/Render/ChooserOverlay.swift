import BibModel
import Foundation

/// Which of several PDFs to open.
enum ChooserOverlay {
    static func draw(_ chooser: FileChooser, state: AppState, into screen: inout ScreenBuffer) {
        let inner = Box.draw(title: "\(chooser.address) has \(chooser.files.count) PDFs — Enter opens, Esc cancels",
                             width: 90, height: chooser.files.count + 2, into: &screen)
        for (index, file) in chooser.files.enumerated() where index < inner.height {
            let name = file.label.map { "\($0): " } ?? ""
            let text = "\(index + 1). \(name)\(file.path)"
            let style = index == chooser.selected ? Style(.selection) : Style(.overlay)
            screen.fill(x: inner.x, y: inner.y + index, width: inner.width, height: 1, style: style)
            screen.write(DisplayWidth.truncate(text, to: inner.width), x: inner.x, y: inner.y + index, style: style)
        }
    }
}
