/// Makes a page's snippet from its stored text: the window of words with the most query words
/// in it, the matches marked.
///
/// FTS5's own `snippet()` is not used: with a prefix query it builds the merged list of every
/// word with that prefix again for each page it is asked about (tens of milliseconds each for a
/// common prefix over 100,000 pages). The text is tokenized here with the index's tokenizer, so
/// what is marked is what matched.
///
/// One builder serves one query on one thread: it keeps the foldings of the non-ASCII
/// characters met, which pages of a query mostly share.
final class SnippetBuilder {
    /// The query's folded words.
    private let tokens: [[UInt8]]
    /// Whether the words must follow each other (the last one a prefix); else each is a prefix.
    private let phrase: Bool
    /// How many words a snippet shows.
    private let window: Int
    private var cache = FoldCache()

    init(words: [String], phrase: Bool, window: Int) {
        // A bit per query word below; more than 64 words are not marked beyond the 64th.
        tokens = Array(words.flatMap(FoldingTokenizer.tokens(of:)).prefix(64)).map { Array($0.utf8) }
        self.phrase = phrase
        self.window = max(1, window)
    }

    /// The snippet of `text`.
    func snippet(of text: String) -> Snippet {
        var starts: [Int] = []
        var ends: [Int] = []
        var masks: [UInt64] = [] // per word of the text: the query words it matches
        var copy = text
        return copy.withUTF8 { bytes in
            FoldingTokenizer.forEachToken(in: bytes, cache: &cache) { token, start, end in
                starts.append(start)
                ends.append(end)
                masks.append(mask(of: token))
                return true
            }
            guard !starts.isEmpty else { return Snippet(marked: text) }
            let spans = matchSpans(masks)
            let (first, last) = bestWindow(spans: spans, wordCount: starts.count, masks: masks)
            // The text between two byte offsets (always at scalar boundaries: token ends).
            func slice(_ from: Int, _ to: Int) -> String {
                Self.clean(String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self))
            }
            var marked = first > 0 ? "…" : ""
            var position = starts[first]
            for span in spans where span.lowerBound >= first && span.upperBound <= last {
                marked += slice(position, starts[span.lowerBound])
                marked.unicodeScalars.append(Snippet.openMarker)
                marked += slice(starts[span.lowerBound], ends[span.upperBound])
                marked.unicodeScalars.append(Snippet.closeMarker)
                position = ends[span.upperBound]
            }
            marked += slice(position, last == starts.count - 1 ? bytes.count : ends[last])
            if last < starts.count - 1 { marked += "…" }
            return Snippet(marked: marked)
        }
    }

    /// Which query words `token` matches, one bit each: a prefix match, or in a phrase an exact
    /// match for all words but the last.
    private func mask(of token: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var mask: UInt64 = 0
        for (number, word) in tokens.enumerated() where token.count >= word.count {
            let exact = phrase && number < tokens.count - 1
            if exact && token.count != word.count { continue }
            if word.withUnsafeBufferPointer({ $0.elementsEqual(token.prefix(word.count)) }) { mask |= 1 << UInt64(number) }
        }
        return mask
    }

    /// The runs of text words that match: single words, or whole phrases.
    private func matchSpans(_ masks: [UInt64]) -> [ClosedRange<Int>] {
        guard !tokens.isEmpty else { return [] }
        if !phrase { return masks.indices.filter { masks[$0] != 0 }.map { $0...$0 } }
        var spans: [ClosedRange<Int>] = []
        var start = 0
        while start + tokens.count <= masks.count {
            if (0..<tokens.count).allSatisfy({ masks[start + $0] & (1 << UInt64($0)) != 0 }) {
                spans.append(start...(start + tokens.count - 1))
                start += tokens.count
            } else {
                start += 1
            }
        }
        return spans
    }

    /// The window of `window` words holding the most different query words, then the most
    /// matches; it starts a few words before its first match, for context.
    private func bestWindow(spans: [ClosedRange<Int>], wordCount: Int, masks: [UInt64]) -> (Int, Int) {
        let size = min(window, wordCount)
        var best = (first: 0, score: -1)
        var low = 0 // the first span that can be inside the window
        var high = 0 // past the last span inside the window
        for span in spans {
            // Anchors come in order, so the window only moves forward.
            let first = max(0, min(span.lowerBound - size / 4, wordCount - size))
            while low < spans.count, spans[low].lowerBound < first { low += 1 }
            high = max(high, low)
            while high < spans.count, spans[high].upperBound < first + size { high += 1 }
            var words: UInt64 = 0
            var count = 0
            for inside in spans[low..<high] where inside.lowerBound >= first {
                words |= masks[inside].reduce(0, |)
                count += 1
            }
            let score = words.nonzeroBitCount * 1_000 + count
            if score > best.score { best = (first, score) }
        }
        return (best.first, best.first + size - 1)
    }

    /// Text without the marker characters (private-use characters a PDF's text may hold).
    private static func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == Snippet.openMarker || $0 == Snippet.closeMarker }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != Snippet.openMarker && $0 != Snippet.closeMarker }))
    }
}
