/// Hands every event to a closure.
///
/// ```swift
/// configuration.logHandler = ClosureLogHandler { event in analytics.record(event.description) }
/// ```
public struct ClosureLogHandler: RestorationLogHandler {
    private let handle: @Sendable (RestorationLogEvent) -> Void

    /// Creates a handler.
    ///
    /// - Parameter handle: Called with every event.
    public init(_ handle: @escaping @Sendable (RestorationLogEvent) -> Void) {
        self.handle = handle
    }

    /// Calls the closure.
    ///
    /// - Parameter event: The event.
    public func log(_ event: RestorationLogEvent) {
        handle(event)
    }
}
