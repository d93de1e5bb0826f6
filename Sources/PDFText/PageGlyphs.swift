
/// A page's text as poppler-glib gives it, with one box per Unicode scalar, and the two ways
/// bibread turns it into text: reading order (`readingText`) and physical layout (`layoutText`).
///
/// poppler-glib builds its text from a selection of the whole page, which differs from what
/// `pdftotext` prints in two ways that `readingText` repairs from the boxes:
/// - words from two text blocks that poppler joins on one line (a table row, a page number at
///   the end of a dot leader, a heading beside its paragraph) come out with no space between
///   them ("Tables1" for "Tables 1");
/// - `pdftotext` joins a line that ends with a hyphen to the next one and drops the hyphen
///   ("environ-" + "ment" gives "environment"); poppler-glib keeps both lines.
struct PageGlyphs {
    /// The text in UTF-8.
    let utf8: [UInt8]
    /// One box per Unicode scalar of `utf8`, separators (space, newline) included.
    let boxes: [GlyphBox]
    /// The fonts of the text, as runs of scalars (empty when poppler gave none): `reflowText`
    /// tells code and headings by them.
    var fonts: [FontRun] = []

    /// Gaps between two characters wider than this many character heights separate words.
    static let wordGap = 0.5
    /// In `layoutText`, gaps between two words wider than this many character heights are more
    /// than a word space: the second word goes to the column its x position gives.
    static let columnGap = 1.0
    /// In `layoutText`, no word starts further right than this column (text far outside the
    /// page would otherwise make lines of thousands of spaces).
    static let maximumColumn = 1000.0

    /// The byte offset of each Unicode scalar, or nil when poppler gave one box per scalar no
    /// more (then the boxes cannot be trusted and the text is used as it is).
    var scalarStarts: [Int]? {
        var starts: [Int] = []
        starts.reserveCapacity(boxes.count)
        for (offset, byte) in utf8.enumerated() where byte & 0xC0 != 0x80 { starts.append(offset) }
        return starts.count == boxes.count ? starts : nil
    }

    var rawText: String { String(decoding: utf8, as: UTF8.self) }

    /// The text in reading order, repaired to read as `pdftotext` prints it (see the type).
    var readingText: String {
        guard let starts = scalarStarts, !starts.isEmpty else { return rawText }
        let count = starts.count
        func end(_ index: Int) -> Int { index + 1 < count ? starts[index + 1] : utf8.count }
        func byte(_ index: Int) -> UInt8? { end(index) - starts[index] == 1 ? utf8[starts[index]] : nil }
        func isSeparator(_ index: Int) -> Bool { byte(index).map(Self.isSeparator) ?? false }

        var output: [UInt8] = []
        output.reserveCapacity(utf8.count + utf8.count / 16)
        var index = 0
        while index < count {
            if byte(index) == UInt8(ascii: "-"), index + 2 < count, byte(index + 1) == UInt8(ascii: "\n"),
               !isSeparator(index + 2), Self.continuesHyphenatedLine(hyphen: boxes[index], next: boxes[index + 2]) {
                index += 2
                continue
            }
            output.append(contentsOf: utf8[starts[index]..<end(index)])
            if index + 1 < count, !isSeparator(index), !isSeparator(index + 1),
               Self.separatesWords(boxes[index], boxes[index + 1]) {
                output.append(UInt8(ascii: " "))
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The text in its physical layout: words on a character grid, rows by baseline, columns by
    /// x over the page's mean character advance (spaces included), so that columns stay side by
    /// side. Words one word space apart stay one space apart.
    var layoutText: String {
        guard let starts = scalarStarts, !starts.isEmpty else { return rawText }
        let count = starts.count
        func end(_ index: Int) -> Int { index + 1 < count ? starts[index + 1] : utf8.count }
        func isSeparator(_ index: Int) -> Bool {
            end(index) - starts[index] == 1 && Self.isSeparator(utf8[starts[index]])
        }

        // Words: runs of characters with no separator and no gap between them.
        var words: [LayoutWord] = []
        var advance = 0.0
        var advances = 0
        for index in 0..<count {
            let box = boxes[index]
            guard box.x1.isFinite, box.x2.isFinite, box.y1.isFinite, box.y2.isFinite else { continue }
            if utf8[starts[index]] != UInt8(ascii: "\n"), box.width > 0 {
                advance += box.width
                advances += 1
            }
            if isSeparator(index) { continue }
            if index > 0, !isSeparator(index - 1), !words.isEmpty, words[words.count - 1].last == index - 1,
               !Self.separatesWords(boxes[index - 1], box) {
                words[words.count - 1].extend(with: box, scalar: index)
            } else {
                words.append(LayoutWord(box: box, scalar: index))
            }
        }
        guard !words.isEmpty else { return "" }
        let pitch = advances > 0 ? max(advance / Double(advances), 0.5) : 5
        let heights = words.map(\.box.height).filter { $0 > 0 }.sorted()
        let lineHeight = heights.isEmpty ? 10 : max(heights[heights.count / 2], 1)
        let left = words.map(\.box.x1).min() ?? 0

        // Rows: words sorted by their vertical centre, a new row where the centre moves by more
        // than half a line from the row's first word.
        let order = words.indices.sorted {
            words[$0].box.centerY != words[$1].box.centerY ? words[$0].box.centerY < words[$1].box.centerY : $0 < $1
        }
        var rows: [(y: Double, words: [Int])] = []
        for word in order {
            let y = words[word].box.centerY
            if let last = rows.last, y - last.y <= lineHeight / 2 {
                rows[rows.count - 1].words.append(word)
            } else {
                rows.append((y, [word]))
            }
        }

        var output: [UInt8] = []
        output.reserveCapacity(utf8.count * 2)
        var previousY: Double?
        for row in rows {
            if let previousY {
                output.append(UInt8(ascii: "\n"))
                // Up to two blank lines where rows are further apart than usual lines.
                let blanks = Int(min(max((row.y - previousY) / (1.25 * lineHeight) - 1, 0), 2).rounded())
                output.append(contentsOf: repeatElement(UInt8(ascii: "\n"), count: blanks))
            }
            previousY = row.y
            var column = 0
            let sorted = row.words.sorted { words[$0].box.x1 != words[$1].box.x1 ? words[$0].box.x1 < words[$1].box.x1 : $0 < $1 }
            var previous: GlyphBox?
            for word in sorted {
                let box = words[word].box
                let wanted = Int(min((box.x1 - left) / pitch, Self.maximumColumn).rounded())
                let start: Int
                if let previous {
                    // A word space keeps one space (a heading in a large font is not spread out);
                    // a wider gap, such as between two columns, goes to the word's own column,
                    // with at least two spaces.
                    let gap = box.x1 - previous.x2
                    start = gap < Self.columnGap * max(box.height, previous.height) ? column + 1 : max(wanted, column + 2)
                } else {
                    start = max(0, wanted)
                }
                previous = box
                output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: start - column))
                column = start
                for scalar in words[word].first...words[word].last {
                    output.append(contentsOf: utf8[starts[scalar]..<end(scalar)])
                    column += 1
                }
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Space, tab, carriage return and line feed: poppler's separators.
    static func isSeparator(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// Whether two characters that poppler gives one after the other with nothing between them
    /// belong to different words: the second is well to the right of the first on the same line,
    /// back to its left, or elsewhere on the page altogether. Characters stacked vertically with
    /// the same x are rotated text, and superscripts overlap their line: both stay joined.
    static func separatesWords(_ first: GlyphBox, _ second: GlyphBox) -> Bool {
        let height = max(first.height, second.height, 1)
        let verticallyApart = second.y1 >= first.y2 || second.y2 <= first.y1
        let horizontallyApart = second.x1 >= first.x2 || second.x2 <= first.x1
        if verticallyApart { return horizontallyApart }
        return second.x1 - first.x2 > wordGap * height || second.x2 <= first.x1
    }

    /// Whether a line that ends in `hyphen` goes on with the character `next` as pdftotext sees
    /// it: the next line starts to the left of the hyphen and just below it (within two lines),
    /// not in another column or block.
    static func continuesHyphenatedLine(hyphen: GlyphBox, next: GlyphBox) -> Bool {
        let drop = next.y1 - hyphen.y1
        return next.x1 < hyphen.x1 && drop > 0 && drop < 2 * hyphen.height
    }
}

/// A word of `PageGlyphs.layoutText`: scalars `first...last` and the box around them.
private struct LayoutWord {
    var box: GlyphBox
    var first: Int
    var last: Int

    init(box: GlyphBox, scalar: Int) {
        self.box = box
        first = scalar
        last = scalar
    }

    mutating func extend(with other: GlyphBox, scalar: Int) {
        box = box.union(other)
        last = scalar
    }
}
