/// Where in its input a syntax error is.
public enum PropertyListLocation: Sendable, Equatable, CustomStringConvertible {
    /// A byte offset from the start (binary property lists).
    case byte(Int)
    /// A 1-based line and column, the column counting characters (XML property lists).
    case line(Int, column: Int)

    /// `byte N` or `line:column`.
    public var description: String {
        switch self {
        case .byte(let offset): return "byte \(offset)"
        case .line(let line, let column): return "\(line):\(column)"
        }
    }
}
