import BibModel

/// How one cell is drawn: a role plus optional emphasis.
public struct Style: Hashable, Sendable {
    public var role: StyleRole
    public var bold: Bool
    public var underline: Bool

    public init(_ role: StyleRole = .normal, bold: Bool = false, underline: Bool = false) {
        self.role = role
        self.bold = bold
        self.underline = underline
    }

    public static let normal = Style()
}
