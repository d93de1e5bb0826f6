import BibModel

/// A grid of cells that `render` fills and a backend draws; tests compare it as text.
public struct ScreenBuffer: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// Where the hardware cursor should be (the search bar while typing), if shown.
    public var cursor: (x: Int, y: Int)? {
        get { cursorPosition.map { ($0.x, $0.y) } }
        set { cursorPosition = newValue.map { Position(x: $0.x, y: $0.y) } }
    }
    private var cursorPosition: Position?

    private struct Position: Equatable, Sendable {
        var x: Int
        var y: Int
    }

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(x: Int, y: Int) -> Cell {
        cells[y * width + x]
    }

    /// Writes `text` from column `x` of row `y`, clipped to `limit` columns (default: the row's
    /// end). Control characters are shown as `TerminalText.cleanedLine` shows them (white space
    /// as a space, the others as `�`); a wide character that would not fit is replaced by a
    /// space. Returns the columns written.
    @discardableResult
    public mutating func write(_ text: some StringProtocol, x: Int, y: Int, style: Style = .normal, limit: Int? = nil) -> Int {
        guard y >= 0, y < height, x >= 0, x < width else { return 0 }
        let end = min(width, x + (limit ?? width))
        var column = x
        for character in text {
            guard column < end else { break }
            var grapheme = String(character)
            let columns = DisplayWidth.of(character)
            if let first = character.unicodeScalars.first,
               let shown = TerminalText.replacement(for: first, keepingLines: false) {
                grapheme = String(shown)
            } else if columns == 0 {
                continue
            }
            if column + columns > end {
                cells[y * width + column] = Cell(" ", style: style)
                column += 1
                break
            }
            clearOverlap(x: column, y: y, columns: columns)
            cells[y * width + column] = Cell(grapheme, style: style)
            if columns == 2 { cells[y * width + column + 1] = Cell("", style: style, isContinuation: true) }
            column += columns
        }
        return column - x
    }

    /// Fills a rectangle with spaces in `style`.
    public mutating func fill(x: Int, y: Int, width fillWidth: Int, height fillHeight: Int, style: Style = .normal) {
        let top = max(0, y), bottom = min(height, y + fillHeight)
        let left = max(0, x), right = min(width, x + fillWidth)
        guard top < bottom, left < right else { return }
        for row in top..<bottom {
            clearOverlap(x: left, y: row, columns: right - left)
            for column in left..<right { cells[row * width + column] = Cell(" ", style: style) }
        }
    }

    /// Changes the style of cells without touching their text (a selection bar).
    public mutating func restyle(x: Int, y: Int, width styleWidth: Int, style: Style) {
        guard y >= 0, y < height else { return }
        for column in max(0, x)..<min(width, x + styleWidth) { cells[y * width + column].style = style }
    }

    /// Before overwriting cells, blanks the halves of wide characters that would be split.
    private mutating func clearOverlap(x: Int, y: Int, columns: Int) {
        let row = y * width
        if cells[row + x].isContinuation && x > 0 { cells[row + x - 1] = Cell(" ", style: cells[row + x - 1].style) }
        let after = x + columns
        if after < width && cells[row + after].isContinuation { cells[row + after] = Cell(" ", style: cells[row + after].style) }
    }

    /// The rows as plain text, trailing spaces removed: what tests compare.
    public var text: String {
        lines.joined(separator: "\n")
    }

    /// Each row as plain text with trailing spaces removed.
    public var lines: [String] {
        (0..<height).map { row in
            var line = ""
            for column in 0..<width {
                let cell = cells[row * width + column]
                if !cell.isContinuation { line += cell.text }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// The positions whose cells differ from `previous` (all of them when the sizes differ).
    public func changedCells(since previous: ScreenBuffer?) -> [Int] {
        guard let previous, previous.width == width, previous.height == height else { return Array(cells.indices) }
        return cells.indices.filter { cells[$0] != previous.cells[$0] }
    }

    public static func == (lhs: ScreenBuffer, rhs: ScreenBuffer) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.cells == rhs.cells && lhs.cursorPosition == rhs.cursorPosition
    }
}
