import Foundation

/// A temporary home with its own XDG folders (``Fixtures/isolatedEnvironment(under:)``), removed
/// when the object goes away; `bibread` runs there, so nothing of this machine's is read or
/// written. Suites subclass it for their own files.
open class IsolatedHome {
    /// The temporary folder: HOME, with `config`, `data`, `cache` and `state` below it.
    public let root: URL
    /// The environment `bibread` runs with.
    public var environment: [String: String]

    /// Makes the folder; `extraEnvironment` is added to (or replaces) the isolated variables.
    public init(extraEnvironment: [String: String] = [:]) throws {
        root = try Fixtures.temporaryDirectory()
        environment = Fixtures.isolatedEnvironment(under: root).merging(extraEnvironment) { $1 }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Runs the built `bibread` with `arguments` in this home.
    public func bibread(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.bibread(arguments, environment: environment)
    }
}
