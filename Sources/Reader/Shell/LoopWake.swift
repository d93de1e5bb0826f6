/// Why the loop woke up.
enum LoopWake: Sendable, Equatable {
    /// Input or a background result may be waiting.
    case ready
    /// Nothing happened for a while: time for the idle tick.
    case idle
    /// A signal asked the program to end (it was taken up).
    case signalled
    /// The terminal went away (a closed SSH session).
    case hungUp
    /// Waiting itself failed: the loop ends.
    case failed
}
