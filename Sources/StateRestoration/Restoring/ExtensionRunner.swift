import Synchronization

/// Runs a launch's restoration extensions concurrently and waits for all of them,
/// until the timeout, or until the waiting task is cancelled, whichever comes
/// first; then cancels what is left.
///
/// Each extension runs in its own task, whose handle is kept and cancelled at the
/// timeout: an extension that ignores cancellation cannot hold the launch beyond
/// the timeout.
enum ExtensionRunner {
    /// How one extension ended, with the value it returned when it completed.
    struct Finished: Sendable {
        var outcome: LaunchReport.ExtensionOutcome
        var value: (any Sendable)?
    }

    static func run(
        _ entries: [RestorationExtensions.Entry], timeout: Duration, clock: any Clock<Duration>,
        progress: ExtensionProgress? = nil
    ) async -> [Finished] {
        guard !entries.isEmpty else { return [] }
        let tracker = Tracker(count: entries.count)
        progress?.begin(entries.count)
        let tasks = entries.enumerated().map { index, entry in
            Task {
                progress?.started()
                let result: Tracker.Result
                do {
                    result = .completed(try await entry.operation())
                } catch {
                    result = .failed(String(describing: error))
                }
                progress?.finished()
                tracker.finish(index, result)
            }
        }
        // Whichever ends first: all extensions (false), or the timeout's full sleep (true). A
        // cancelled launch ends both early, the sleep without reaching the timeout.
        let reachedTimeout = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await tracker.waitForAll()
                return false
            }
            group.addTask { (try? await clock.sleep(for: timeout)) != nil }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        let unfinished: LaunchReport.ExtensionOutcome.Result =
            reachedTimeout || !Task.isCancelled ? .timedOut : .cancelled
        let results = tracker.close()
        for (task, result) in zip(tasks, results) where result == nil { task.cancel() }
        return zip(entries, results).map { entry, result in
            switch result {
            case .completed(let value)?:
                Finished(outcome: .init(name: entry.name, path: entry.path, result: .completed), value: value)
            case .failed(let message)?:
                Finished(outcome: .init(name: entry.name, path: entry.path, result: .failed(message)), value: nil)
            case nil:
                Finished(outcome: .init(name: entry.name, path: entry.path, result: unfinished), value: nil)
            }
        }
    }

    /// Collects results and wakes the waiter when the last one arrives.
    private final class Tracker: Sendable {
        enum Result: Sendable {
            case completed(any Sendable)
            case failed(String)
        }

        private struct State {
            var results: [Result?]
            var remaining: Int
            var closed = false
            var waiter: CheckedContinuation<Void, Never>?
        }

        private let state: Mutex<State>

        init(count: Int) {
            state = Mutex(State(results: Array(repeating: nil, count: count), remaining: count))
        }

        func finish(_ index: Int, _ result: Result) {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard !state.closed else { return nil }
                state.results[index] = result
                state.remaining -= 1
                guard state.remaining == 0 else { return nil }
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }

        /// Returns when every extension finished, or when the waiting task is cancelled.
        func waitForAll() async {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        if state.remaining == 0 || state.closed { return true }
                        state.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    state.closed = true
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume()
            }
        }

        /// Stops accepting results and returns them; nil for the unfinished.
        func close() -> [Result?] {
            state.withLock { state in
                state.closed = true
                return state.results
            }
        }
    }
}

/// How far a launch's extensions have come: how many it waits for, how many have
/// started and how many have finished.
///
/// The harness of `StateRestorationTesting` reads it to advance a test clock to
/// the timeout only while extensions are unfinished, never in the moment
/// between the last one finishing and the launch cancelling its timeout.
package final class ExtensionProgress: Sendable {
    /// A snapshot of the counts.
    package struct Counts: Equatable, Sendable {
        /// How many extensions the launch waits for; zero before it waits.
        package var total = 0
        /// How many of them have begun to run.
        package var started = 0
        /// How many of them have returned or thrown.
        package var finished = 0
    }

    private let state = Mutex(Counts())

    /// Creates a record of no extensions.
    package init() {}

    /// The counts now.
    package var counts: Counts { state.withLock { $0 } }

    func begin(_ count: Int) { state.withLock { $0.total += count } }
    func started() { state.withLock { $0.started += 1 } }
    func finished() { state.withLock { $0.finished += 1 } }
}

/// The tasks a coordinator's running launch awaits while it holds the coordinator: the
/// launch's own task, which calls the delegate. (Extensions run after the handover, outside
/// the launch's turn.)
final class AwaitedTasks: Sendable {
    private let tasks = Mutex<Set<Int>>([])

    /// The identity of the current task (`UnsafeCurrentTask`'s hash), nil outside a task.
    static var current: Int? { withUnsafeCurrentTask { $0?.hashValue } }

    func insert(_ task: Int?) {
        guard let task else { return }
        _ = tasks.withLock { $0.insert(task) }
    }

    func remove(_ task: Int?) {
        guard let task else { return }
        _ = tasks.withLock { $0.remove(task) }
    }

    func contains(_ task: Int) -> Bool { tasks.withLock { $0.contains(task) } }
}
