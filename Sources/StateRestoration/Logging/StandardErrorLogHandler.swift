import Foundation

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
