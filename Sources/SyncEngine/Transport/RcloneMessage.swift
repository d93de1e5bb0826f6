import BibModel
import Foundation

/// What rclone said on its standard error, made fit for a message: rclone's configuration holds
/// tokens and passwords, and a backend's error may quote a URL with credentials or a signed query,
/// so its words are never shown as they are.
///
/// rclone's last message is kept (its summary: `Failed to cat: …`, with the lines of a server's
/// error page it quotes, their HTML tags removed), without rclone's date and level; a URL loses its user and password and its query; a value
/// after a word such as `token`, `password`, `secret` or `key` and `=` or `:` (and after `Bearer`)
/// becomes `***`, and so does any run
/// of 32 or more letters and digits (a token without a name); control characters are removed;
/// at most 200 characters are kept.
public enum RcloneMessage {
    /// The longest message kept, in characters.
    public static let maximumLength = 200

    public static func cleaned(_ standardError: String) -> String {
        let lines = standardError.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.allSatisfy(\.isWhitespace) }
        // rclone's last message, with the lines it spans (a server's error page quoted in it).
        let start = lines.lastIndex { $0.range(of: #"^\d{4}/\d\d/\d\d "#, options: .regularExpression) != nil } ?? max(0, lines.count - 1)
        guard start < lines.count else { return "" }
        var line = lines[start...].joined(separator: " ")
        line = TerminalText.cleanedLine(String(line.prefix(16 * maximumLength)))
            .replacingOccurrences(of: #"<[^>]*>"#, with: " ", options: .regularExpression)
            .replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        for (pattern, replacement) in rules {
            line = pattern.stringByReplacingMatches(in: line, range: NSRange(line.startIndex..., in: line), withTemplate: replacement)
        }
        line = line.trimmingCharacters(in: .whitespaces)
        return line.count > maximumLength ? String(line.prefix(maximumLength)) + "…" : line
    }

    /// Each rule in order: rclone's date and level; a URL's user and password; a URL's query; a
    /// bearer's token (before the name `Authorization` hides only the word `Bearer`); a named
    /// secret; a long anonymous one.
    private static let rules: [(NSRegularExpression, String)] = [
        (#"^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d(\.\d+)? *([A-Z]+ *: *)?"#, ""),
        (#"([A-Za-z][A-Za-z0-9+.-]*://)[^/\s@]*@"#, "$1"),
        (#"(://[^\s?#]*)[?#][^\s"']*"#, "$1?***"),
        (#"(?i)\b(bearer|basic)\s+[^\s"',;&}]+"#, "$1 ***"),
        (#"(?i)\b([a-z_-]*(token|passw(or)?d|pass|secret|key|auth[a-z]*|signature|sig|credential)s?)("?\s*[:=]\s*"?)[^\s"',;&}]+"#, "$1$4***"),
        (#"[A-Za-z0-9_+=-]{32,}"#, "***"),
    ].compactMap { pattern, replacement in
        (try? NSRegularExpression(pattern: pattern)).map { ($0, replacement) }
    }
}
