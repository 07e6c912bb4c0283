public import StateRestoration
import Synchronization

/// A delegate that forwards every call to the app's delegate and logs it as a
/// ``LifecycleEvent``: what a ``RestorationHarness`` gives its coordinators.
///
/// Every requirement of `RestorationDelegate` is forwarded,
/// with the wrapped delegate's answers and app-wide state unchanged, so the app's
/// delegate behaves as it does in the app. Tests rarely make one themselves; they
/// read ``RestorationHarness/Relaunch/lifecycle``.
///
/// ```swift
/// let log = LifecycleRecorder<AppDelegate>.Log()
/// let coordinator = RestorationCoordinator(
///     screens: screens, store: store, delegate: LifecycleRecorder(AppDelegate(), log: log))
/// _ = try await coordinator.launch()
/// print(log.events)
/// ```
///
/// `LifecycleRecorder` is `Sendable` when the wrapped delegate is, as every
/// delegate is.
public struct LifecycleRecorder<Wrapped: RestorationDelegate>: RestorationDelegate {
    /// The app-wide state of the wrapped delegate.
    public typealias AppState = Wrapped.AppState

    /// Where recorders append their events, in the order the calls happened; one
    /// log may serve the coordinators of several simulated processes.
    ///
    /// ```swift
    /// let log = LifecycleRecorder<AppDelegate>.Log()
    /// #expect(log.events.isEmpty)
    /// ```
    ///
    /// A `Sendable` class: the events sit behind a `Mutex`.
    public final class Log: Sendable {
        private let recorded = Mutex<[LifecycleEvent]>([])

        /// Creates an empty log.
        public init() {}

        /// The events recorded so far, oldest first.
        public var events: [LifecycleEvent] { recorded.withLock { $0 } }

        /// Appends an event.
        ///
        /// - Parameter event: The event.
        public func record(_ event: LifecycleEvent) {
            recorded.withLock { $0.append(event) }
        }
    }

    /// The app's delegate, which answers every call.
    public let wrapped: Wrapped
    /// Where the calls are logged.
    public let log: Log

    /// Wraps a delegate.
    ///
    /// - Parameters:
    ///   - wrapped: The app's delegate.
    ///   - log: Where to log the calls.
    public init(_ wrapped: Wrapped, log: Log) {
        self.wrapped = wrapped
        self.log = log
    }

    /// Logs ``LifecycleEvent/willFinishLaunching`` and forwards.
    ///
    /// - Parameter context: The launch's context.
    public func willFinishLaunching(_ context: RestorationContext) async {
        log.record(.willFinishLaunching)
        await wrapped.willFinishLaunching(context)
    }

    /// Forwards, then logs ``LifecycleEvent/shouldRestore(_:)`` with the answer.
    ///
    /// - Parameter archive: The archive's info.
    /// - Returns: The wrapped delegate's answer.
    public func shouldRestore(_ archive: ArchiveInfo) async -> Bool {
        let answer = await wrapped.shouldRestore(archive)
        log.record(.shouldRestore(answer))
        return answer
    }

    /// Forwards, then logs ``LifecycleEvent/makeScreen(_:made:)``.
    ///
    /// - Parameters:
    ///   - path: The screen's path.
    ///   - request: Its type key and decoded state.
    /// - Returns: The wrapped delegate's screen.
    public func screen(forIdentifierPath path: IdentifierPath, request: ScreenRequest) async -> (any RestorableScreen)?
    {
        let screen = await wrapped.screen(forIdentifierPath: path, request: request)
        log.record(.makeScreen(path, made: screen != nil))
        return screen
    }

    /// Logs ``LifecycleEvent/didDecodeRestorableState(hasAppState:)`` and forwards.
    ///
    /// - Parameters:
    ///   - state: The decoded app-wide state.
    ///   - context: The launch's context.
    public func didDecodeRestorableState(_ state: AppState?, context: RestorationContext) async {
        log.record(.didDecodeRestorableState(hasAppState: state != nil))
        await wrapped.didDecodeRestorableState(state, context: context)
    }

    /// Logs ``LifecycleEvent/didFinishLaunching(_:)`` and forwards.
    ///
    /// - Parameters:
    ///   - report: The launch report so far.
    ///   - context: The launch's context.
    public func didFinishLaunching(_ report: LaunchReport, context: RestorationContext) async {
        log.record(.didFinishLaunching(report.outcome))
        await wrapped.didFinishLaunching(report, context: context)
    }

    /// Forwards, then logs ``LifecycleEvent/shouldSave(_:)`` with the answer.
    ///
    /// - Parameter metadata: The metadata the wrapped delegate may add to.
    /// - Returns: The wrapped delegate's answer.
    public func shouldSave(_ metadata: inout RestorationMetadata) async -> Bool {
        let answer = await wrapped.shouldSave(&metadata)
        log.record(.shouldSave(answer))
        return answer
    }

    /// Logs ``LifecycleEvent/willEncodeRestorableState`` and forwards.
    ///
    /// - Returns: The wrapped delegate's app-wide state.
    public func willEncodeRestorableState() async -> AppState? {
        log.record(.willEncodeRestorableState)
        return await wrapped.willEncodeRestorableState()
    }
}
