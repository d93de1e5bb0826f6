import Foundation
import Testing

/// A trait for a suite (or a test) whose tests wait on the clock: runs each of its tests on
/// threads of their own instead of Swift's cooperative pool.
///
/// The pool has one thread per core, two on the CI machine, and the suite has hundreds of
/// synchronous tests that hold a pool thread while they run a process or a loop for seconds
/// (minutes for some). With both threads held, an async test cannot even wake up from its
/// `Task.sleep`: a tmux test polling the screen for 20 s saw nothing for the whole time and then
/// found the screen it was waiting for, too late (CI, issue 30). A test under this trait is
/// scheduled by the kernel like any process, whatever the pool is doing.
public struct OwnThreadsTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// One scope per test case (per argument of a parameterized test), none for a suite.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(OwnThreadsExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OwnThreadsTrait {
    /// Runs each test on threads of its own, not on Swift's cooperative pool (`OwnThreadsTrait`).
    public static var onOwnThreads: Self { Self() }
}

/// A task executor whose jobs run on a concurrent dispatch queue of its own: such a queue is
/// overcommitting, so a job never waits for a thread that another job is blocking.
final class OwnThreadsExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = OwnThreadsExecutor()
    private let queue = DispatchQueue(label: "bibread-tests.own-threads", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
