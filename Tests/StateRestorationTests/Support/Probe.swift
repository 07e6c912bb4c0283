import Synchronization
import StateRestoration

/// Records lifecycle events, in order, from screens and delegates of one test.
final class Probe: Sendable {
    private let events = Mutex<[String]>([])

    func record(_ event: String) {
        events.withLock { $0.append(event) }
    }

    var recorded: [String] { events.withLock { $0 } }
}

/// A screen that records its hooks into a probe the delegate hands it.
protocol ProbedScreen: RestorableScreen {
    var probe: Probe? { get set }
    var restoredPath: IdentifierPath? { get set }
}

extension ProbedScreen {
    mutating func decodeRestorableState(_ state: State, context: RestorationContext) {
        self.state = state
        restoredPath = context.identifierPath
        probe?.record("decode \(context.identifierPath?.description ?? "?")")
    }

    mutating func restorationDidFinish(_ results: RestorationResults) {
        let path = restoredPath?.description ?? "?"
        probe?.record("finish \(path)")
        for outcome in results.extensions { probe?.record("told \(path) \(outcome.name): \(outcome.result)") }
    }
}
