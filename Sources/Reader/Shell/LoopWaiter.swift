/// The loop's clock: waits until there may be input or a background result, or until it is
/// time for the idle tick.
protocol LoopWaiter {
    func wait() -> LoopWake
}
