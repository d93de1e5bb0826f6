/// How one line follows the line before it in reflowed text.
enum LineJoin: Equatable {
    /// On the same line, after a space (or after nothing, when a hyphenated word is joined).
    case space
    /// On a line of its own.
    case newLine
    /// After a blank line: a new paragraph or block.
    case blankLine
}
