import Dispatch

/// A value made on another thread while the caller goes on; ``get()`` waits for it.
///
/// The sync opens its cache manifest (an SQLite file, about 10 ms when new) this way while it
/// fetches the .bib and lists the remote.
final class BackgroundValue<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written once, by the worker, before it signals `done`.
    private var result: Result<Value, any Error>?

    /// Starts making the value with `make`.
    init(_ make: @escaping @Sendable () throws -> Value) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            result = Result(catching: make)
            done.signal()
        }
    }

    /// A value already made: ``get()`` returns it at once.
    init(made value: Value) {
        result = .success(value)
        done.signal()
    }

    /// Waits until the value is made, or `seconds` have passed; true when it is made.
    func wait(seconds: Double) -> Bool {
        guard done.wait(timeout: .now() + seconds) == .success else { return false }
        done.signal()
        return true
    }

    /// The value, or the error making it threw; waits until it is made.
    func get() throws -> Value {
        done.wait()
        defer { done.signal() }
        guard let result else { preconditionFailure("a BackgroundValue signalled before it was set") }
        return try result.get()
    }
}
