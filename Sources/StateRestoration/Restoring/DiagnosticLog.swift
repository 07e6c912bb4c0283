import Synchronization

/// The diagnostics one launch collects, from any task: screens report while
/// decoding (on the coordinator), the delegate on its own actor, extensions on
/// theirs.
final class DiagnosticLog: Sendable {
    private let state = Mutex<[RestorationDiagnostic]>([])

    /// Records one diagnostic after those already reported.
    func append(_ diagnostic: RestorationDiagnostic) {
        state.withLock { $0.append(diagnostic) }
    }

    /// Every diagnostic reported so far, in the order reported.
    var entries: [RestorationDiagnostic] { state.withLock { $0 } }
}
