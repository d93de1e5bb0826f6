/// A problem found in a list, with its place in the tree.
public struct ListProblem: Sendable, Equatable, CustomStringConvertible {
    /// How serious a problem is: errors make the list unreadable, warnings do not.
    public enum Severity: String, Sendable {
        /// The list cannot be read as it is.
        case error
        /// The list was read, but something in it was left out or may not be what was meant.
        case warning
    }

    /// Whether the problem stops the list from being read.
    public let severity: Severity
    /// Where the problem is, as keys and indices from the root (`Children[2].Reference.Page`);
    /// empty for the root itself.
    public let path: String
    /// What is wrong, e.g. `expected a number ≥ 1, found "abc"`.
    public let message: String

    /// Creates a problem at `path` (empty for the root).
    public init(_ severity: Severity, path: String, message: String) {
        self.severity = severity
        self.path = path
        self.message = message
    }

    /// `path: message`, with `root` standing for the empty path.
    public var description: String {
        "\(path.isEmpty ? "root" : path): \(message)"
    }
}
