import Foundation

/// A clock whose time moves only when a test advances it, so that restoration
/// timeouts are tested without sleeping.
///
/// Give it to a coordinator through `RestorationConfiguration.clock`
/// (or to a ``RestorationHarness``), let the code under test sleep on it, wait until
/// the expected number of tasks sleep, then move time forward: every sleeper whose
/// deadline passed wakes at once. A sleeping task that is cancelled wakes with a
/// `CancellationError`, as on a real clock.
///
/// ```swift
/// let clock = TestClock()
/// async let woke: Void = clock.sleep(for: .seconds(5))
/// await clock.waitForSleepers(1)
/// clock.advance(by: .seconds(5))
/// try await woke
/// ```
///
/// `TestClock` is `Sendable`: its state sits behind a lock, and any task may
/// sleep on it or advance it.
public final class TestClock: Clock, Sendable {
    /// A point on a ``TestClock``: how far the clock was advanced since it was made.
    ///
    /// ```swift
    /// let start = clock.now
    /// clock.advance(by: .seconds(3))
    /// start.duration(to: clock.now)   // 3 seconds
    /// ```
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// The time since the clock was made.
        public var offset: Duration

        /// Creates an instant at an offset from the clock's start.
        ///
        /// - Parameter offset: The time since the clock was made.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// Returns the instant `duration` later.
        ///
        /// - Parameter duration: How far to move.
        /// - Returns: The later (or, for a negative duration, earlier) instant.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// Returns the time from this instant to another.
        ///
        /// - Parameter other: The other instant.
        /// - Returns: `other` minus this instant.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Orders instants by their offset.
        ///
        /// - Parameters:
        ///   - lhs: An instant.
        ///   - rhs: Another instant.
        /// - Returns: True when `lhs` comes first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

        /// The offset, such as `5.0 seconds`.
        public var description: String { "\(offset)" }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        var cancelled: Set<Int> = []
        /// Sleepers an advance woke whose tasks have not yet returned from `sleep`.
        var woken: Set<Int> = []
    }

    /// The state behind an `NSLock`, not a `Synchronization.Mutex`: ThreadSanitizer on Linux
    /// does not see a contended `Mutex` hand over (a program of four threads incrementing a
    /// counter under one reports races), and a harness polls this clock in a loop.
    private final class LockedState: @unchecked Sendable {
        private let lock = NSLock()
        private var value = State()

        func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
            lock.lock()
            defer { lock.unlock() }
            return try body(&value)
        }
    }

    private let state = LockedState()

    /// Creates a clock at offset zero, with nobody sleeping on it.
    ///
    /// ```swift
    /// let clock = TestClock()
    /// let configuration = RestorationConfiguration(extensionTimeout: .seconds(5), clock: clock)
    /// ```
    public init() {}

    /// The current instant; it changes only through ``advance(by:)`` and ``advance(to:)``.
    public var now: Instant { state.withLock { $0.now } }

    /// Zero: the clock has no resolution of its own.
    public var minimumResolution: Duration { .zero }

    /// How many tasks sleep on the clock now.
    ///
    /// ```swift
    /// #expect(clock.sleeperCount == 0)   // nothing is left waiting
    /// ```
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Whether an advance woke a sleeper whose task has not yet run on from its sleep.
    var hasWakingSleepers: Bool { state.withLock { !$0.woken.isEmpty } }

    /// The deadlines of the tasks sleeping on the clock now, earliest first.
    ///
    /// ```swift
    /// #expect(clock.deadlines == [clock.now.advanced(by: .seconds(5))])
    /// ```
    public var deadlines: [Instant] { state.withLock { $0.sleepers.values.map(\.deadline).sorted() } }

    /// Suspends the calling task until the clock reaches `deadline`, or until the
    /// task is cancelled.
    ///
    /// A deadline that already passed returns at once.
    ///
    /// ```swift
    /// try await clock.sleep(until: clock.now.advanced(by: .seconds(1)), tolerance: nil)
    /// ```
    ///
    /// - Parameters:
    ///   - deadline: The instant to wake at.
    ///   - tolerance: Ignored.
    /// - Throws: `CancellationError` when the task is cancelled before the deadline.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        // Woken or not, the task is past its sleep once this returns.
        defer { _ = state.withLock { $0.woken.remove(id) } }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Action { case wait, resume, cancel }
                let action = state.withLock { state -> Action in
                    if state.cancelled.remove(id) != nil { return .cancel }
                    if deadline <= state.now { return .resume }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return .wait
                }
                switch action {
                case .wait: break
                case .resume: continuation.resume()
                case .cancel: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Sleeps on the clock until the calling task is cancelled, however far the
    /// clock is advanced: the body of an extension that hangs.
    ///
    /// ```swift
    /// context.extendRestoration("log in") { try await clock.sleepUntilCancelled() }
    /// ```
    ///
    /// - Throws: `CancellationError`, once the task is cancelled.
    public func sleepUntilCancelled() async throws {
        let never = Instant(offset: Duration(secondsComponent: .max, attosecondsComponent: 0))
        try await sleep(until: never)
        // Unreachable unless a test advances the clock by 292 billion years.
        throw CancellationError()
    }

    /// Moves the clock forward and wakes every sleeper whose deadline passed.
    ///
    /// ```swift
    /// clock.advance(by: .seconds(5))
    /// ```
    ///
    /// - Parameter duration: How far to move; must not be negative.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "a TestClock does not go back in time")
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            return Self.takeDue(&state)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Moves the clock to an instant and wakes every sleeper whose deadline passed.
    ///
    /// ```swift
    /// clock.advance(to: deadline)
    /// ```
    ///
    /// - Parameter instant: The new time; an instant already passed changes nothing.
    public func advance(to instant: Instant) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = max(state.now, instant)
            return Self.takeDue(&state)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns once at least `count` tasks sleep on the clock, or once the
    /// calling task is cancelled.
    ///
    /// It yields until then; it never sleeps.
    ///
    /// ```swift
    /// async let session = coordinator.launch()
    /// await clock.waitForSleepers(2)   // the hanging extension and the coordinator's timeout
    /// clock.advance(by: .seconds(5))
    /// ```
    ///
    /// - Parameter count: How many sleepers to wait for.
    public func waitForSleepers(_ count: Int) async {
        while sleeperCount < count && !Task.isCancelled { await Task.yield() }
    }

    private static func takeDue(_ state: inout State) -> [Sleeper] {
        let now = state.now
        let due = state.sleepers.filter { $0.value.deadline <= now }
        for id in due.keys {
            state.sleepers[id] = nil
            state.woken.insert(id)
        }
        return due.sorted { $0.key < $1.key }.map(\.value)
    }
}
