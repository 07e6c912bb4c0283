import Foundation

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

/// Prints events at or above a level, one line each, to standard error.
///
/// ```swift
/// var configuration = RestorationConfiguration()
/// configuration.logHandler = StandardErrorLogHandler(minimumLevel: .info)
/// ```
public struct StandardErrorLogHandler: RestorationLogHandler {
    /// The least level printed.
    public var minimumLevel: RestorationLogEvent.Level
    /// Text put before every line.
    public var prefix: String

    /// Creates a handler.
    ///
    /// - Parameters:
    ///   - minimumLevel: The least level printed; `.info` leaves out one line per node.
    ///   - prefix: Text put before every line.
    public init(minimumLevel: RestorationLogEvent.Level = .info, prefix: String = "[restoration] ") {
        self.minimumLevel = minimumLevel
        self.prefix = prefix
    }

    /// Prints the event when its level is at least ``minimumLevel``.
    ///
    /// - Parameter event: The event.
    public func log(_ event: RestorationLogEvent) {
        guard event.level >= minimumLevel else { return }
        FileHandle.standardError.write(Data((prefix + event.description + "\n").utf8))
    }
}

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
