/// Where `EffectRunner` puts background work: the app's dispatch queues (`DispatchJobQueues`),
/// or, in tests, the caller's thread.
protocol JobQueues: Sendable {
    /// Runs `work` on `queue`, in the order asked for (but on `openings`, which runs each at once).
    func async(on queue: WorkQueue, _ work: @escaping @Sendable () -> Void)
    /// Waits for the work put on `queue` so far.
    func finish(_ queue: WorkQueue)
}
