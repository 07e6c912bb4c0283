public import StateRestoration
import Synchronization

/// Records events, in order, from screens, delegates and tasks of one test.
public final class Probe: Sendable {
    private let events = Mutex<[String]>([])

    /// Creates an empty probe.
    public init() {}

    /// Records one event after those already recorded.
    ///
    /// - Parameter event: The event.
    public func record(_ event: String) {
        events.withLock { $0.append(event) }
    }

    /// Every event recorded so far, in order.
    public var recorded: [String] { events.withLock { $0 } }
}

/// A screen that records its hooks into a probe the delegate hands it.
public protocol ProbedScreen: RestorableScreen {
    /// Where the screen records its hooks; nil records nothing.
    var probe: Probe? { get set }
    /// The path the screen was restored at, set by its decode.
    var restoredPath: IdentifierPath? { get set }
}

extension ProbedScreen {
    /// Takes the state, notes the path, and records `decode <path>`.
    ///
    /// - Parameters:
    ///   - state: The decoded state.
    ///   - context: The restoration's context.
    public mutating func decodeRestorableState(_ state: State, context: RestorationContext) {
        self.state = state
        restoredPath = context.identifierPath
        probe?.record("decode \(context.identifierPath?.description ?? "?")")
    }

    /// Records `finish <path>`, then `told <path> <extension>: <result>` for each extension.
    ///
    /// - Parameter results: How the screen's extensions ended.
    public mutating func restorationDidFinish(_ results: RestorationResults) {
        let path = restoredPath?.description ?? "?"
        probe?.record("finish \(path)")
        for outcome in results.extensions { probe?.record("told \(path) \(outcome.name): \(outcome.result)") }
    }
}
