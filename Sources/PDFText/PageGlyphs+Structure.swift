

extension PageGlyphs {
    /// The text in reading order, reflowable: each paragraph on one line, with every line that
    /// is a line in the PDF kept on its own line (code and other text in a monospace font, with
    /// its indentation; lines of a table of contents that end in a dot leader; list items; lines
    /// with a gap of more than `tabularGap` character heights, such as table rows and definition
    /// lists), headings (a
    /// larger or bold font) standing alone, and a blank line between paragraphs and blocks.
    /// Lines ending in a hyphen are joined to the next line of their paragraph as in
    /// `readingText`. Without usable boxes, the text as poppler gives it.
    var reflowText: String {
        let lines = textLines
        guard !lines.isEmpty else { return scalarStarts == nil ? rawText : "" }
        let joins = Self.joins(of: lines, bodyFontSize: Self.bodyFontSize(of: lines))
        var output = ""
        var index = 0
        while index < lines.count {
            if index > 0 {
                switch joins[index] {
                case .space:
                    if output.hasSuffix("-"), let letter = output.dropLast().last, letter.isLetter,
                       let next = lines[index].text.first, next.isLetter {
                        // A hyphenated word: the hyphen goes before a lower-case letter, as in
                        // pdftotext ("environ-" "ment"), and stays before a capital ("S-Plus").
                        if next.isLowercase { output.removeLast() }
                    } else {
                        output += " "
                    }
                case .newLine: output += "\n"
                case .blankLine: output += "\n\n"
                }
            }
            if lines[index].isMonospace {
                // A run of code lines keeps its indentation from the run's left edge.
                var end = index
                while end + 1 < lines.count, lines[end + 1].isMonospace, joins[end + 1] == .newLine { end += 1 }
                let left = lines[index...end].map(\.box.x1).min() ?? lines[index].box.x1
                for line in index...end {
                    if line > index { output += "\n" }
                    output += Self.spacedText(of: lines[line], from: left)
                }
                index = end + 1
            } else {
                output += lines[index].text
                index += 1
            }
        }
        return output
    }

    /// The text of a monospace line with its words at their columns (x over the character
    /// advance) from `left`, so that code keeps its indentation and aligned columns.
    static func spacedText(of line: TextLine, from left: Double) -> String {
        let pitch = max(line.pitch, 0.5)
        var text = ""
        var column = 0
        for (index, word) in line.words.enumerated() {
            let wanted = Int(min(max(0, (word.box.x1 - left) / pitch), 200).rounded())
            let start = index == 0 ? wanted : max(wanted, column + 1)
            text += String(repeating: " ", count: start - column) + word.text
            column = start + word.text.count
        }
        return text
    }

    /// The page's printed lines: poppler's lines, split into words as `readingText` does, joined
    /// where they go on along one baseline (also to a label read before them, see
    /// `labelLine(for:in:)`); empty without usable boxes.
    var textLines: [TextLine] {
        guard let starts = scalarStarts, !starts.isEmpty else { return [] }
        let count = starts.count
        func end(_ index: Int) -> Int { index + 1 < count ? starts[index + 1] : utf8.count }
        func byte(_ index: Int) -> UInt8? { end(index) - starts[index] == 1 ? utf8[starts[index]] : nil }
        func isSeparator(_ index: Int) -> Bool { byte(index).map(Self.isSeparator) ?? false }

        var traits: [Int: FontTraits] = [:]
        var fontOfScalar = [Int](repeating: -1, count: count)
        for (number, run) in fonts.enumerated() {
            let first = max(0, run.first)
            let last = min(count - 1, run.last)
            guard first <= last else { continue }
            for index in first...last { fontOfScalar[index] = number }
        }
        // Read once per font name: poppler gives a run per change of font, and a page has many
        // runs of a few fonts.
        var traitsByName: [String: FontTraits] = [:]
        func traitsOfFont(_ number: Int) -> FontTraits? {
            guard number >= 0 else { return nil }
            if let known = traits[number] { return known }
            let name = fonts[number].name
            let found = traitsByName[name] ?? FontTraits(fontNamed: name)
            traitsByName[name] = found
            traits[number] = found
            return found
        }

        // Poppler's lines: words between two line feeds.
        var fragments: [[TextLine.Word]] = [[]]
        var index = 0
        while index < count {
            defer { index += 1 }
            let box = boxes[index]
            guard box.x1.isFinite, box.x2.isFinite, box.y1.isFinite, box.y2.isFinite else { continue }
            if byte(index) == UInt8(ascii: "\n") {
                if !(fragments.last?.isEmpty ?? true) { fragments.append([]) }
                continue
            }
            if isSeparator(index) { continue }
            let scalar = String(decoding: utf8[starts[index]..<end(index)], as: UTF8.self)
            var words = fragments.removeLast()
            if let last = words.last, last.last == index - 1, !Self.separatesWords(boxes[index - 1], box) {
                words[words.count - 1].last = index
                words[words.count - 1].text += scalar
                words[words.count - 1].box = words[words.count - 1].box.union(box)
            } else {
                words.append(TextLine.Word(first: index, last: index, box: box, text: scalar))
            }
            fragments.append(words)
        }
        // Poppler ends a line where a text block ends, also within a printed line (a comment
        // beside code, the cells of a table row, a page number after its leader): a fragment
        // that goes on to the right on the same baseline belongs to the line before.
        var merged: [[TextLine.Word]] = []
        for fragment in fragments where !fragment.isEmpty {
            if let previous = merged.last, let last = previous.last, let first = fragment.first,
               abs(first.box.centerY - last.box.centerY) < 0.3 * max(first.box.height, last.box.height, 1),
               first.box.x1 >= last.box.x2 - 0.5 {
                var words = fragment
                if first.box.x1 - last.box.x2 <= Self.wordGap * max(first.box.height, last.box.height, 1) {
                    // No space between them: one word ("maxnames=" and its "<integer>").
                    let word = words.removeFirst()
                    merged[merged.count - 1][merged[merged.count - 1].count - 1].last = word.last
                    merged[merged.count - 1][merged[merged.count - 1].count - 1].text += word.text
                    merged[merged.count - 1][merged[merged.count - 1].count - 1].box = last.box.union(word.box)
                }
                merged[merged.count - 1] += words
            } else if let label = Self.labelLine(for: fragment, in: merged) {
                merged[label] += fragment
            } else {
                merged.append(fragment)
            }
        }

        return merged.map { words in
            let box = words.dropFirst().reduce(words[0].box) { $0.union($1.box) }
            let heights = words.map(\.box.height).sorted()
            // What the line is set in: its fonts, but for code with a comment set beside it in
            // another font, only those of the code (the words before the comment, which starts
            // after a gap wider than two spaces).
            let height = heights[heights.count / 2]
            var leadEnd = words.count
            for (position, (word, next)) in zip(words, words.dropFirst()).enumerated()
            where next.box.x1 - word.box.x2 > 1.2 * max(height, 1) && Self.startsComment(next.text) {
                leadEnd = position + 1
                break
            }
            var characters = 0
            var monospace = 0
            var bold = 0
            var width = 0.0
            var monospaceWidth = 0.0
            var monospaceCharacters = 0
            var sizes: [Double: Int] = [:]
            for (position, word) in words.enumerated() {
                for scalar in word.first...word.last where !isSeparator(scalar) {
                    width += boxes[scalar].width
                    let font = fontOfScalar[scalar]
                    if traitsOfFont(font)?.isMonospace == true {
                        monospaceWidth += boxes[scalar].width
                        monospaceCharacters += 1
                    }
                    guard position < leadEnd else { continue }
                    characters += 1
                    guard let found = traitsOfFont(font) else { continue }
                    if found.isMonospace { monospace += 1 }
                    if found.isBold { bold += 1 }
                    sizes[(fonts[font].size * 2).rounded() / 2, default: 0] += 1
                }
            }
            let total = Double(max(characters, 1))
            let scalars = words.reduce(0) { $0 + $1.last - $1.first + 1 }
            return TextLine(words: words, box: box, height: height,
                            monospaceShare: Double(monospace) / total, boldShare: Double(bold) / total,
                            fontSize: sizes.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key ?? 0,
                            pitch: monospaceCharacters > 0 ? monospaceWidth / Double(monospaceCharacters) : width / Double(max(scalars, 1)))
        }
    }

    /// How far back `labelLine(for:in:)` looks, in lines.
    static let labelSearchDepth = 80

    /// The line among the last `labelSearchDepth` of `lines` that `fragment` goes on: a line of
    /// one short word (a section number, a label) on the fragment's baseline, ending at most three
    /// character heights to its left. Poppler reads a column of numbers before the column of text
    /// beside it (a table of contents); a column of prose is never one short word per line.
    static func labelLine(for fragment: [TextLine.Word], in lines: [[TextLine.Word]]) -> Int? {
        guard let first = fragment.first else { return nil }
        for index in lines.indices.reversed().prefix(labelSearchDepth) {
            guard lines[index].count == 1, let label = lines[index].first, label.text.count <= 6 else { continue }
            let height = max(first.box.height, label.box.height, 1)
            if abs(first.box.centerY - label.box.centerY) < 0.3 * height,
               first.box.x1 >= label.box.x2, first.box.x1 - label.box.x2 < 3 * height {
                return index
            }
        }
        return nil
    }

    /// Whether `word` starts a comment in a common programming language (`#`, `%`, `//`, `/*`,
    /// `--`, `;`).
    static func startsComment(_ word: String) -> Bool {
        ["#", "%", "//", "/*", "--", ";"].contains { word.hasPrefix($0) }
    }

    /// The font size of most of the characters of the page's long lines of prose (at least half
    /// as wide as the widest line, no column gap; 0 without fonts): code in a smaller font, or
    /// the small print of examples side by side, does not make the prose around it all headings.
    static func bodyFontSize(of lines: [TextLine]) -> Double {
        var sizes: [Double: Int] = [:]
        let widest = lines.map(\.box.width).max() ?? 0
        for line in lines where line.fontSize > 0 && !line.isMonospace && line.box.width >= widest / 2
            && line.widestGap <= tabularGap * line.height {
            sizes[line.fontSize, default: 0] += line.text.count
        }
        return sizes.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key ?? 0
    }

    /// Gaps between two words wider than this many character heights set columns apart (a
    /// table row, a term and its definition): such a line stays a line.
    static let tabularGap = 1.8

    /// How each line follows the one before it (the first's is `.blankLine`).
    ///
    /// The rules, from the boxes and fonts:
    /// - a line in another column, above the line before or more than 1.6 usual line steps below
    ///   it starts a block (a blank line);
    /// - a heading (all bold, or a font 15% larger than the page's body text) stands alone;
    ///   consecutive lines of one heading are joined;
    /// - monospace lines (code) stay lines, set off from prose by a blank line;
    /// - lines ending in a dot leader and a page number, list items, and lines with a gap wider
    ///   than `tabularGap` character heights stay lines;
    /// - a line under the text of a list item goes on with the line before; a line further left
    ///   than a line that went on from the one before starts a paragraph (a definition's term);
    /// - a line that ends short of the right edge of the prose lines around it by more than the
    ///   next line's first word (that word would have fitted: justified or ragged right alike)
    ///   ends its paragraph,
    ///   and so does one followed by an indented first line (a line further right than both its
    ///   neighbours);
    ///   in a block narrower than a quarter of the page's widest line every line is a line;
    /// - other lines are joined.
    static func joins(of lines: [TextLine], bodyFontSize: Double) -> [LineJoin] {
        guard !lines.isEmpty else { return [] }
        // The usual step from one line to the next, for the body's height.
        let steps = zip(lines, lines.dropFirst()).compactMap { previous, next -> Double? in
            let step = next.box.centerY - previous.box.centerY
            return step > 0.5 * previous.height && step < 2.5 * previous.height ? step / previous.height : nil
        }.sorted()
        let usualStep = steps.isEmpty ? 1.2 : steps[steps.count / 2]

        func isHeading(_ line: TextLine) -> Bool { line.isHeading(bodyFontSize: bodyFontSize) }
        func sameHeading(_ first: TextLine, _ second: TextLine) -> Bool {
            isHeading(first) && isHeading(second) && abs(first.fontSize - second.fontSize) < 0.5
                && (first.boldShare >= 0.9) == (second.boldShare >= 0.9)
        }
        func standsAlone(_ line: TextLine) -> Bool {
            line.endsInLeader || line.widestGap > tabularGap * line.height
        }

        // Blocks: runs of lines one under the other; each block's right edge from its prose lines.
        var blockStarts = [Bool](repeating: false, count: lines.count)
        blockStarts[0] = true
        for index in lines.indices.dropFirst() {
            let previous = lines[index - 1]
            let line = lines[index]
            let height = max(previous.height, line.height, 1)
            let step = line.box.centerY - previous.box.centerY
            // Side by side with a gap of a few characters at most (a short code line above an
            // indented one), not in another column.
            let overlaps = line.box.x1 < previous.box.x2 + 3 * height && previous.box.x1 < line.box.x2 + 3 * height
            blockStarts[index] = !overlaps || step < 0.3 * height || step > max(1.6 * usualStep, 2.0) * height
        }
        // Each block's extent, and each line's right edge: the furthest right of the prose lines
        // around it in its block (two before, one after), so that a block whose parts have
        // different widths (an abstract above wider body text) ends no line early.
        var left = [Double](repeating: 0, count: lines.count)
        var right = [Double](repeating: 0, count: lines.count)
        var blockRight = [Double](repeating: 0, count: lines.count)
        var start = 0
        while start < lines.count {
            var end = start
            while end + 1 < lines.count, !blockStarts[end + 1] { end += 1 }
            let isProse = lines[start...end].map { !$0.isMonospace && !standsAlone($0) && !isHeading($0) }
            let leftEdge = lines[start...end].map(\.box.x1).min() ?? lines[start].box.x1
            let rightEdge = lines[start...end].map(\.box.x2).max() ?? lines[start].box.x2
            for line in start...end {
                let around = max(start, line - 2)...min(end, line + 1)
                right[line] = around.filter { isProse[$0 - start] }.map { lines[$0].box.x2 }.max() ?? lines[line].box.x2
                left[line] = leftEdge
                blockRight[line] = rightEdge
            }
            start = end + 1
        }
        // A block narrower than a quarter of the page's widest line holds no paragraphs.
        let narrowBlock = 0.25 * (lines.map(\.box.width).max() ?? 0)

        var joins: [LineJoin] = [.blankLine]
        for index in lines.indices.dropFirst() {
            let previous = lines[index - 1]
            let line = lines[index]
            let height = max(previous.height, line.height, 1)
            if blockStarts[index] { joins.append(.blankLine); continue }
            if previous.isMonospace != line.isMonospace { joins.append(.blankLine); continue }
            if isHeading(previous) || isHeading(line) {
                joins.append(sameHeading(previous, line) ? .space : .blankLine)
                continue
            }
            if line.isMonospace || standsAlone(previous) || standsAlone(line) || line.listItemTextStart != nil {
                joins.append(.newLine)
                continue
            }
            // The text of a list item going on under its text, even after a short line.
            let next = index + 1 < lines.count && !blockStarts[index + 1] ? lines[index + 1] : nil
            let continuesItem = previous.listItemTextStart.map { abs(line.box.x1 - $0) < 0.5 * height } ?? false
            if continuesItem { joins.append(.space); continue }
            // A line further left than a paragraph's line that went on from another (not its
            // indented first line) starts an item: a term of a definition list, the next entry
            // of a bibliography, the text after a list.
            if line.box.x1 < previous.box.x1 - 0.8 * height, joins[index - 1] == .space {
                joins.append(.blankLine)
                continue
            }
            // The last line of a paragraph ends short of the block's right edge; in a narrow
            // block (a column of numbers, a table's column) every line is a line.
            if blockRight[index] - left[index] < narrowBlock { joins.append(.newLine); continue }
            // A line ends its paragraph when the next line's first word would have fitted after it.
            let room = right[index - 1] - previous.box.x2
            if let first = line.words.first, room > max(first.box.width + 0.35 * height, 0.8 * height) {
                joins.append(.blankLine)
                continue
            }
            // A first line indented from the lines around it.
            let indented = line.box.x1 > previous.box.x1 + 0.8 * height
                && (next.map { $0.box.x1 < line.box.x1 - 0.5 * height } ?? false)
            joins.append(indented ? .blankLine : .space)
        }
        return joins
    }
}
