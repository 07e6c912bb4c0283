/// Emits one save's or launch's events to the configured handler, timing phases.
/// Costs nothing but a nil check when no handler is set.
struct OperationLog {
    let handler: (any RestorationLogHandler)?
    let operation: RestorationLogEvent.Operation
    private let start = ContinuousClock.now
    private var phaseStart = ContinuousClock.now

    init(_ handler: (any RestorationLogHandler)?, _ operation: RestorationLogEvent.Operation) {
        self.handler = handler
        self.operation = operation
    }

    func callAsFunction(
        _ level: RestorationLogEvent.Level, _ kind: RestorationLogEvent.Kind, path: IdentifierPath? = nil,
        _ message: @autoclosure () -> String, duration: Duration? = nil
    ) {
        handler?.log(RestorationLogEvent(operation, level, kind, path: path, message: message(), duration: duration))
    }

    /// Ends the phase that began at the previous phase's end (or the operation's start).
    mutating func phase(_ name: String) {
        guard let handler else { return }
        let now = ContinuousClock.now
        handler.log(RestorationLogEvent(operation, .info, .phase, message: name, duration: now - phaseStart))
        phaseStart = now
    }

    /// Logs the operation's end with its total duration.
    func finished(_ message: @autoclosure () -> String) {
        guard let handler else { return }
        handler.log(
            RestorationLogEvent(operation, .info, .finished, message: message(), duration: ContinuousClock.now - start))
    }
}
