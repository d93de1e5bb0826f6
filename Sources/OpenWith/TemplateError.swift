import BibreadValues

/// Why a template cannot be used.
public enum TemplateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `{name}` names no placeholder.
    case unknownPlaceholder(String)
    /// A `{` with no `}` after it (or another `{` before it).
    case unclosedBrace
    /// A `}` with no `{` before it.
    case unopenedBrace

    /// The problem as a sentence for messages.
    public var description: String {
        switch self {
        case .unknownPlaceholder(let name):
            let known = Placeholder.allCases.map(\.spelling).joined(separator: ", ")
            return "unknown placeholder {\(name)} (known: \(known); write {{ and }} for literal braces)"
        case .unclosedBrace:
            return "'{' is not closed by '}' (write {{ for a literal brace)"
        case .unopenedBrace:
            return "'}' has no '{' before it (write }} for a literal brace)"
        }
    }
}
