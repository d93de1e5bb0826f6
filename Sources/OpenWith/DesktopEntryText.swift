/// Text for Desktop Entry files (freedesktop.org Desktop Entry Specification 1.5).
enum DesktopEntryText {
    /// The characters that make an `Exec` argument need quotes.
    private static let reserved: Set<Character> = [" ", "\t", "\n", "\"", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#", "(", ")", "`"]

    /// One `Exec` argument as it is written in the file: quoted when it holds a reserved
    /// character (with `"`, `` ` ``, `$` and `\` escaped inside the quotes), `%` doubled (it
    /// starts field codes), then every backslash doubled (the general escape rule of string
    /// values, applied before quoting when the file is read). Nil when it holds a control
    /// character, which no Exec line can carry.
    static func execArgument(_ argument: String) -> String? {
        guard !argument.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        var text = argument
        if text.isEmpty || text.contains(where: { reserved.contains($0) }) {
            var quoted = "\""
            for character in text {
                if character == "\"" || character == "`" || character == "$" || character == "\\" { quoted.append("\\") }
                quoted.append(character)
            }
            text = quoted + "\""
        }
        text = text.replacingAll("%", with: "%%")
        return text.replacingAll("\\", with: "\\\\")
    }
}

extension String {
    /// The string with every `target` character replaced by `replacement`.
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
