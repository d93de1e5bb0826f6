import Foundation

/// Builds FTS5 MATCH expressions from the words of a `text:` query, so that no user text is
/// read as FTS5 syntax (`NEAR`, `AND`, `*`, `"`, `^`, `:`, parentheses, column filters).
enum MatchExpression {
    /// The expression for `words`: each word a prefix (`"dynam"*`), all of them required; or,
    /// with `phrase`, the words in a row with the last a prefix (`"dynamic progr"*`), as
    /// bibread's reference search treats phrases. The words are split and folded the way the
    /// index is (`FoldingTokenizer`); nil when they hold no word at all (`++`, `"`).
    static func make(words: [String], phrase: Bool) -> String? {
        let tokens = words.flatMap(FoldingTokenizer.tokens(of:))
        guard !tokens.isEmpty else { return nil }
        if phrase { return quoted(tokens.joined(separator: " ")) + "*" }
        return tokens.map { quoted($0) + "*" }.joined(separator: " AND ")
    }

    /// `text` as an FTS5 string: in double quotes, with each `"` doubled. (The tokens hold only
    /// letters and digits; quoting them all the same keeps any word, `AND` or `NEAR` included,
    /// a plain word.)
    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
