/// The editing keys of one-line prompts and the search bar: typing, Backspace, `C-u` (clear the
/// line) and `C-w` (delete the word before the cursor).
enum LineEdit {
    /// The text after `key`, or nil when `key` is not an editing key.
    static func edited(_ text: String, by key: Key) -> String? {
        switch key {
        case .backspace:
            return String(text.dropLast())
        case .control("u"):
            return ""
        case .control("w"):
            var text = text
            while text.last == " " { text.removeLast() }
            while let last = text.last, last != " " { text.removeLast() }
            return text
        case .character(let character):
            return text + String(character)
        default:
            return nil
        }
    }
}
