/// A line and column inside a source file, both 1-based; the column counts Unicode scalars.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }
}

/// One problem found while reading a library, printed as `file:line:col: severity: message`.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How bad a problem is: errors make `bibread check` fail, warnings do not.
    public enum Severity: String, Sendable, Hashable {
        case error
        case warning
    }

    public let severity: Severity
    public let path: String
    public let location: SourceLocation
    public let message: String

    public init(_ severity: Severity, path: String, location: SourceLocation, message: String) {
        self.severity = severity
        self.path = path
        self.location = location
        self.message = message
    }

    public var description: String { "\(path):\(location): \(severity.rawValue): \(message)" }
}
