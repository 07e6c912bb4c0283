/// What a launch did: restored or fresh, and why; every screen that was skipped
/// and why; what became of the restoration's extensions.
///
/// ```swift
/// let session = try await coordinator.launch()
/// if session.report.outcome == .fresh { print(session.report.freshReason ?? "") }
/// for skipped in session.report.skipped { print(skipped) }
/// ```
public struct LaunchReport: Sendable, Equatable {
    /// Whether the launch restored an archive.
    public enum Outcome: String, Sendable, Equatable {
        /// The hierarchy came from the archive (perhaps with some screens skipped).
        case restored
        /// The hierarchy is the declaration's initial one.
        case fresh
    }

    /// Why a launch started fresh.
    public struct FreshReason: Sendable, Equatable, CustomStringConvertible {
        /// The kind of reason.
        public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
            /// The code's name.
            public var rawValue: String
            /// Creates a code.
            ///
            /// - Parameter rawValue: The code's name.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// The code's name.
            public var description: String { rawValue }

            /// No archive was saved.
            public static let noArchive = Code(rawValue: "no-archive")
            /// The delegate's should-restore said no.
            public static let declinedByDelegate = Code(rawValue: "declined-by-delegate")
            /// The archive failed a check (truncated, corrupt, wrong magic, newer
            /// format) and was moved aside.
            public static let archiveRejected = Code(rawValue: "archive-rejected")
            /// The archive's root is not the declaration's root (another identifier or
            /// kind), or it is but its own screen did not come back; in that case the
            /// shared objects have taken back their state, and the notes say so.
            public static let rootNotRestored = Code(rawValue: "root-not-restored")
            /// The archive is older than ``RestorationConfiguration/maximumArchiveAge``.
            public static let stale = Code(rawValue: "stale")
            /// The store could not be read.
            public static let storeUnreadable = Code(rawValue: "store-unreadable")
            /// The previous launch died while restoring this archive (a crash, or a
            /// kill, during restoration or its extensions); the archive was moved aside.
            public static let crashedDuringRestoration = Code(rawValue: "crashed-during-restoration")
        }

        /// The kind of reason.
        public var code: Code
        /// One line that says what happened.
        public var message: String

        /// Creates a reason.
        ///
        /// - Parameters:
        ///   - code: The kind of reason.
        ///   - message: One line that says what happened.
        public init(_ code: Code, _ message: String) {
            self.code = code
            self.message = message
        }

        /// The message.
        public var description: String { message }
    }

    /// What became of one restoration extension.
    public struct ExtensionOutcome: Sendable, Equatable, CustomStringConvertible {
        /// How an extension ended.
        public enum Result: Sendable, Equatable {
            /// It returned.
            case completed
            /// It threw; the error's description.
            case failed(String)
            /// It was still running at the timeout and was cancelled.
            case timedOut
            /// It was still running when the task awaiting the launch was cancelled,
            /// and was cancelled with it.
            case cancelled
            /// It was added after the extension phase began and never ran.
            case late
        }

        /// The name it was added with.
        public var name: String
        /// The path of the screen that added it; nil for the delegate.
        public var path: IdentifierPath?
        /// How it ended.
        public var result: Result

        /// Creates an outcome.
        ///
        /// - Parameters:
        ///   - name: The extension's name.
        ///   - path: The screen that added it, or nil.
        ///   - result: How it ended.
        public init(name: String, path: IdentifierPath?, result: Result) {
            self.name = name
            self.path = path
            self.result = result
        }

        /// `<name> (<path>): <result>`.
        public var description: String {
            let owner = path.map { " (\($0))" } ?? ""
            return "\(name)\(owner): \(result)"
        }
    }

    /// A screen whose saved state was migrated from an older State version.
    public struct MigratedScreen: Sendable, Equatable, CustomStringConvertible {
        /// The screen's path.
        public var path: IdentifierPath
        /// The State version it was saved with.
        public var fromVersion: Int
        /// The State version it was migrated to.
        public var toVersion: Int

        /// Creates a record.
        ///
        /// - Parameters:
        ///   - path: The screen's path.
        ///   - fromVersion: The saved State version.
        ///   - toVersion: The current State version.
        public init(path: IdentifierPath, fromVersion: Int, toVersion: Int) {
            self.path = path
            self.fromVersion = fromVersion
            self.toVersion = toVersion
        }

        /// `<path> migrated from State version 1 to 2`.
        public var description: String { "\(path) migrated from State version \(fromVersion) to \(toVersion)" }
    }

    /// Whether the launch restored.
    public var outcome: Outcome
    /// Why it started fresh; nil when it restored.
    public var freshReason: FreshReason?
    /// The archive's info, when one was read and passed its checks.
    public var archiveInfo: ArchiveInfo?
    /// Where a rejected archive was moved, for inspection.
    public var rejectedArchive: String?
    /// The check a rejected archive failed (`checksum-mismatch`, `truncated`,
    /// `crashed-during-restoration`, …); nil when no archive was rejected.
    public var rejectedCheck: String?
    /// The paths of the restored screens, in tree order.
    public var restoredPaths: [IdentifierPath]
    /// Every saved screen that did not come back, and why.
    public var skipped: [SkippedScreen]
    /// The screens whose states were migrated from an older State version.
    public var migrated: [MigratedScreen]
    /// The identifiers of the shared objects that took back their saved state.
    public var restoredObjects: [String]
    /// Problems that skipped no screen (the app-wide state did not decode, say).
    public var notes: [String]
    /// What screens and the delegate reported with ``RestorationContext/report(_:)``
    /// during the launch (a selected row whose model is gone, say).
    public var diagnostics: [RestorationDiagnostic]
    /// What became of each restoration extension.
    public var extensions: [ExtensionOutcome]

    init(outcome: Outcome, freshReason: FreshReason? = nil) {
        self.outcome = outcome
        self.freshReason = freshReason
        self.archiveInfo = nil
        self.rejectedArchive = nil
        self.rejectedCheck = nil
        self.restoredPaths = []
        self.skipped = []
        self.migrated = []
        self.restoredObjects = []
        self.notes = []
        self.diagnostics = []
        self.extensions = []
    }
}
