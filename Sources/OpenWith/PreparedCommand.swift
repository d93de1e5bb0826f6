/// A command ready to run: the program's path, its arguments, and its standard input.
public struct PreparedCommand: Sendable, Equatable {
    /// The program to run (an absolute path, as ``Launcher/findExecutable(_:path:)`` gives).
    public var executable: String
    /// The arguments after the program name (`argv[1...]`); `argv[0]` is `executable`.
    public var arguments: [String]
    /// The bytes to write to its standard input, if any.
    public var standardInput: [UInt8]?

    /// A command; nothing is checked here (``CommandBuilder`` does the checking).
    public init(executable: String, arguments: [String], standardInput: [UInt8]? = nil) {
        self.executable = executable
        self.arguments = arguments
        self.standardInput = standardInput
    }
}
