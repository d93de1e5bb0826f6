/// Leaves values for the operating system to reclaim when the process exits.
///
/// A command that ends right after printing a large library would otherwise free it one
/// reference at a time: for 100,000 references, tens of milliseconds the user only waits for.
/// Only for one-shot commands: each call keeps its value for the life of the process.
enum ExitReclaim {
    /// Keeps `value` alive until the process exits.
    static func leave<Value>(_ value: Value) {
        _ = Unmanaged.passRetained(Box(value))
    }

    private final class Box<Value> {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}
