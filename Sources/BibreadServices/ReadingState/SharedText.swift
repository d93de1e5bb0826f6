import ReadingStateSync

/// Text as the shared reading state carries it: what the log format takes (no control or
/// bidirectional formatting characters, bounded lengths), made from what a user typed or
/// imported. A name is cleaned and cut; a note's line ends are made `\n`; a note too long to
/// share is nil (it stays on this machine only).
enum SharedText {
    /// `name` with control and bidirectional formatting characters made spaces, cut to the
    /// longest name the log takes.
    static func name(_ name: String) -> String {
        let cleaned = String(String.UnicodeScalarView(name.unicodeScalars.map { StateOperation.refuses($0) ? " " : $0 }))
        guard cleaned.count > StateOperation.maximumNameLength else { return cleaned }
        return String(cleaned.prefix(StateOperation.maximumNameLength - 1)) + "…"
    }

    /// `text` with `\r\n` and `\r` made `\n` and the other refused characters removed; nil when
    /// it is longer than the log takes.
    static func note(_ text: String, limit: Int = StateOperation.maximumNoteLength) -> String? {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        let cleaned = String(String.UnicodeScalarView(lines.unicodeScalars.filter { $0 == "\n" || $0 == "\t" || !StateOperation.refuses($0) }))
        return cleaned.count <= limit ? cleaned : nil
    }
}
