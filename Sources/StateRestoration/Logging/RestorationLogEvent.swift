/// One event of a save or a launch: what was saved, restored or skipped and why,
/// and how long each phase took.
///
/// Each event prints as one line, readable in a terminal:
///
/// ```text
/// launch archive-read: main, format 1, app 2.4 (311), saved 2026-11-22T10:41:07Z, 10 screens
/// launch screen-skipped tabs/browse/product#2: decode-failed: ProductScreen.State did not decode: …
/// launch phase: re-create and decode screens (1.32 ms)
/// save node-skipped tabs/<scratch>: no-identifier: tabs/<scratch> has no restoration identifier; …
/// save finished: 24 nodes saved, 3 states encoded, 21 reused, 23,598 bytes (1.05 ms)
/// ```
public struct RestorationLogEvent: Sendable, Equatable, CustomStringConvertible {
    /// Which operation an event belongs to.
    public enum Operation: String, Sendable, Equatable {
        /// ``RestorationCoordinator/launch(into:)`` or ``RestorationCoordinator/launch()``.
        case launch
        /// ``RestorationCoordinator/save(_:)-(ScreenTree)``.
        case save
    }

    /// How much an event matters.
    public enum Level: Int, Sendable, Comparable {
        /// One line per saved or restored node: many on a large hierarchy.
        case debug
        /// Phases, outcomes and totals.
        case info
        /// Something was skipped, rejected, declined or failed.
        case warning

        /// Orders levels from debug to warning.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What kind of event this is.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's name.
        public var rawValue: String
        /// Creates a kind.
        ///
        /// - Parameter rawValue: The kind's name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The kind's name.
        public var description: String { rawValue }

        /// The operation began.
        public static let started = Kind(rawValue: "started")
        /// A phase ended; the event carries its duration.
        public static let phase = Kind(rawValue: "phase")
        /// The archive was read and passed its checks.
        public static let archiveRead = Kind(rawValue: "archive-read")
        /// The archive failed a check, or the last launch died restoring it, and was moved aside.
        public static let archiveRejected = Kind(rawValue: "archive-rejected")
        /// The launch starts fresh; the message says why.
        public static let fresh = Kind(rawValue: "fresh")
        /// A screen came back.
        public static let screenRestored = Kind(rawValue: "screen-restored")
        /// A saved screen did not come back; the message says why.
        public static let screenSkipped = Kind(rawValue: "screen-skipped")
        /// A screen's state was migrated from an older State version.
        public static let screenMigrated = Kind(rawValue: "screen-migrated")
        /// A shared object took back its state.
        public static let objectRestored = Kind(rawValue: "object-restored")
        /// A restoration extension ended; the message says how.
        public static let extensionFinished = Kind(rawValue: "extension-finished")
        /// A node was saved.
        public static let nodeSaved = Kind(rawValue: "node-saved")
        /// A node was not saved; the message says why.
        public static let nodeSkipped = Kind(rawValue: "node-skipped")
        /// The save exceeded its size budget.
        public static let budgetExceeded = Kind(rawValue: "budget-exceeded")
        /// The delegate declined to save.
        public static let declined = Kind(rawValue: "declined")
        /// The operation failed as a whole.
        public static let failed = Kind(rawValue: "failed")
        /// A note that skipped nothing, or a diagnostic a screen reported.
        public static let note = Kind(rawValue: "note")
        /// The operation ended; the event carries its total duration.
        public static let finished = Kind(rawValue: "finished")
    }

    /// The operation.
    public var operation: Operation
    /// How much the event matters.
    public var level: Level
    /// What kind of event it is.
    public var kind: Kind
    /// The node it is about, if one.
    public var path: IdentifierPath?
    /// The details, in one line.
    public var message: String
    /// How long the phase or operation took, for phases and totals.
    public var duration: Duration?

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - operation: The operation.
    ///   - level: How much it matters.
    ///   - kind: What kind of event it is.
    ///   - path: The node it is about.
    ///   - message: The details, in one line.
    ///   - duration: How long it took.
    public init(
        _ operation: Operation, _ level: Level, _ kind: Kind, path: IdentifierPath? = nil, message: String,
        duration: Duration? = nil
    ) {
        self.operation = operation
        self.level = level
        self.kind = kind
        self.path = path
        self.message = message
        self.duration = duration
    }

    /// `<operation> <kind>[ <path>]: <message>[ (<duration>)]`, on one line.
    public var description: String {
        var line = "\(operation.rawValue) \(kind)"
        if let path { line += " \(path)" }
        line += ": " + message.replacingNewlines
        if let duration { line += " (\(duration.milliseconds))" }
        return line
    }
}

extension String {
    /// The text with line breaks replaced by spaces, so an event stays one line.
    var replacingNewlines: String {
        String(map { $0.isNewline ? " " : $0 })
    }
}

extension Duration {
    /// `1.32 ms`, `0.04 ms`.
    var milliseconds: String {
        let micros = Double(components.seconds) * 1_000_000 + Double(components.attoseconds) / 1e12
        let hundredths = Int((micros / 10).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) ms"
    }
}
