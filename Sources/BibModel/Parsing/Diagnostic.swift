
/// One problem found while reading a library, printed as `file:line:col: severity: message`.
///
/// Where it is and what it says are worked out only when asked: a large library can have
/// thousands of warnings that `list` only counts.
public struct Diagnostic: Sendable, CustomStringConvertible {
    /// How bad a problem is: errors make `bibread check` fail, warnings do not.
    public enum Severity: String, Sendable, Hashable {
        case error
        case warning
    }

    private enum Place: Sendable {
        case location(SourceLocation)
        case offset(SourceFile, Int)
    }

    private enum Text: Sendable {
        case plain(String)
        case deferred(@Sendable () -> String)
    }

    public let severity: Severity
    public let path: String
    private let place: Place
    private let text: Text

    public init(_ severity: Severity, path: String, location: SourceLocation, message: String) {
        self.severity = severity
        self.path = path
        self.place = .location(location)
        self.text = .plain(message)
    }

    init(_ severity: Severity, source: SourceFile, offset: Int, message: String) {
        self.severity = severity
        self.path = source.path
        self.place = .offset(source, offset)
        self.text = .plain(message)
    }

    init(_ severity: Severity, source: SourceFile, offset: Int, message: @escaping @Sendable () -> String) {
        self.severity = severity
        self.path = source.path
        self.place = .offset(source, offset)
        self.text = .deferred(message)
    }

    /// Where the problem is.
    public var location: SourceLocation {
        switch place {
        case .location(let location): return location
        case .offset(let source, let offset): return source.location(of: offset)
        }
    }

    /// What is wrong, in words.
    public var message: String {
        switch text {
        case .plain(let message): return message
        case .deferred(let message): return message()
        }
    }

    public var description: String { "\(path):\(location): \(severity.rawValue): \(message)" }
}
