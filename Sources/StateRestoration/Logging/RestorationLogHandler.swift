/// Receives the events of every save and launch, to print them or route them into
/// the app's own logging: the counterpart of swift-log's `LogHandler`.
///
/// Logging is opt-in: set ``RestorationConfiguration/logHandler``.
///
/// ```swift
/// struct OSLogRestorationHandler: RestorationLogHandler {
///     let logger = Logger(subsystem: "shop", category: "restoration")
///     func log(_ event: RestorationLogEvent) {
///         logger.log(level: event.level == .warning ? .error : .info, "\(event.description)")
///     }
/// }
/// ```
public protocol RestorationLogHandler: Sendable {
    /// Handles one event. Called on the coordinator's actor: return quickly.
    ///
    /// - Parameter event: The event.
    func log(_ event: RestorationLogEvent)
}
