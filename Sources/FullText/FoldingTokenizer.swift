import GRDB

/// The FTS5 tokenizer of the index, `bibread_fold`: splits and folds text the way bibread's
/// reference search does (BibModel's `Folding` and `FoldedWords`), so a `text:` query finds what
/// the same words find in the references.
///
/// - Words are runs of letters and digits of any script (`c++` is `c`, `o'brien` is `o` and
///   `brien`, `日本語` is one word).
/// - Each word is lower-cased, diacritics dropped (`Ünïcödé` → `unicode`), special letters spelled
///   out (`Straße` → `strasse`, `Łukasiewicz` → `lukasiewicz`, `Ørsted` → `orsted`) and Latin
///   ligatures expanded (`ﬁnd` → `find`).
///
/// SQLite's `unicode61 remove_diacritics 2` folds only letters that decompose, so `ł`, `ø`, `ß`,
/// `æ` would not match their plain spellings; hence this tokenizer. It is registered on every
/// connection of the index (`FullTextIndex` does it), which the `sqlite3` shell cannot do: the
/// `page_text` table is usable only from bibread.
final class FoldingTokenizer: FTS5CustomTokenizer {
    static let name = "bibread_fold"

    /// Folded UTF-8 of the non-ASCII scalars met so far; 0x20 in a folding separates words.
    /// One tokenizer serves one connection, and SQLite calls a connection from one thread at a
    /// time, so the cache needs no lock.
    private var cache = FoldCache()

    init(db: Database, arguments: [String]) throws {}

    func tokenize(context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization,
                  pText: UnsafePointer<CChar>?, nText: CInt,
                  tokenCallback: @escaping FTS5TokenCallback) -> CInt {
        guard let pText, nText > 0 else { return 0 }
        let text = UnsafeBufferPointer(start: UnsafeRawPointer(pText).assumingMemoryBound(to: UInt8.self), count: Int(nText))
        var status: CInt = 0
        Self.forEachToken(in: text, cache: &cache) { token, start, end in
            status = token.withMemoryRebound(to: CChar.self) {
                tokenCallback(context, 0, $0.baseAddress, CInt($0.count), CInt(start), CInt(end))
            }
            return status == 0
        }
        return status
    }

    /// The folded words of `text`, as this tokenizer gives them to FTS5.
    static func tokens(of text: String) -> [String] {
        var tokens: [String] = []
        var cache = FoldCache()
        var text = text
        text.withUTF8 { bytes in
            forEachToken(in: bytes, cache: &cache) { token, _, _ in
                tokens.append(String(decoding: token, as: UTF8.self))
                return true
            }
        }
        return tokens
    }

    /// Calls `body` with each folded word of UTF-8 `text` and the byte range it came from,
    /// until `body` returns false.
    static func forEachToken(in text: UnsafeBufferPointer<UInt8>, cache: inout FoldCache,
                             _ body: (UnsafeBufferPointer<UInt8>, Int, Int) -> Bool) {
        var token: [UInt8] = []
        token.reserveCapacity(64)
        var start = -1 // where the current token started, or -1 between tokens
        var end = 0
        // Hands the current token over; false when `body` says stop.
        func flush() -> Bool {
            guard start >= 0 else { return true }
            defer {
                token.removeAll(keepingCapacity: true)
                start = -1
            }
            return token.withUnsafeBufferPointer { body($0, start, end) }
        }
        var index = 0
        let count = text.count
        while index < count {
            let byte = text[index]
            if byte < 0x80 {
                if (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) {
                    if start < 0 { start = index }
                    token.append(byte)
                    end = index + 1
                } else if byte >= 0x41 && byte <= 0x5A {
                    if start < 0 { start = index }
                    token.append(byte | 0x20)
                    end = index + 1
                } else if !flush() {
                    return
                }
                index += 1
                continue
            }
            let (value, length) = decode(text, at: index)
            let folded = value.map { cache.folding(of: $0) } ?? [0x20]
            // A mark that folds away (a combining accent) belongs to the word it follows.
            if folded.isEmpty, start >= 0 { end = index + length }
            for foldedByte in folded {
                if foldedByte == 0x20 {
                    if !flush() { return }
                } else {
                    if start < 0 { start = index }
                    token.append(foldedByte)
                    end = index + length
                }
            }
            index += length
        }
        _ = flush()
    }

    /// The scalar value of the UTF-8 sequence at `index` (nil when it is malformed) and its length.
    @inline(__always)
    private static func decode(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32?, Int) {
        let byte = text[index]
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        guard length > 1, index + length <= text.count else { return (nil, 1) }
        var value = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length {
            let next = text[index + offset]
            guard next & 0xC0 == 0x80 else { return (nil, 1) }
            value = value << 6 | UInt32(next & 0x3F)
        }
        return (value, length)
    }
}
