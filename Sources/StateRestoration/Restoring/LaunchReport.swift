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

/// What a save wrote.
public struct SaveReport: Sendable, Equatable {
    /// The encoded size of one saved screen's state.
    public struct StateSize: Sendable, Equatable {
        /// The screen's path.
        public var path: IdentifierPath
        /// The screen type's key.
        public var typeKey: ScreenTypeKey
        /// The size of its encoded state, in bytes.
        public var byteCount: Int

        /// Creates a record.
        ///
        /// - Parameters:
        ///   - path: The screen's path.
        ///   - typeKey: The screen type's key.
        ///   - byteCount: The encoded state's size in bytes.
        public init(path: IdentifierPath, typeKey: ScreenTypeKey, byteCount: Int) {
            self.path = path
            self.typeKey = typeKey
            self.byteCount = byteCount
        }
    }

    /// False when the delegate's should-save declined; nothing was written.
    public var saved: Bool
    /// The paths of the saved screens and containers, in tree order: every saved node, reused
    /// or encoded again.
    ///
    /// The list is made from the saved hierarchy the first time it is read.
    public var savedPaths: [IdentifierPath] {
        get { assignedPaths ?? hierarchy?.paths ?? [] }
        set { assignedPaths = newValue }
        // In place, so that appending to the list is not a copy of it each time: the list is
        // taken out while it is changed, so that nothing else holds its storage.
        _modify {
            var paths = assignedPaths ?? hierarchy?.paths ?? []
            assignedPaths = nil
            defer { assignedPaths = paths }
            yield &paths
        }
    }
    /// The nodes not saved, and why (no identifier, not preserved by a container).
    public var skipped: [SkippedScreen]
    /// The archive's size in bytes.
    public var byteCount: Int
    /// How many screen states were encoded by this save.
    public var encodedStateCount = 0
    /// How many screen states were unchanged since the previous save, and reused
    /// its encoded bytes instead of being encoded again.
    public var reusedStateCount = 0
    /// Each saved screen's encoded state size, in tree order.
    ///
    /// Made from the saved hierarchy the first time it is read, as ``savedPaths`` is.
    public var stateSizes: [StateSize] {
        get { assignedSizes ?? hierarchy?.stateSizes ?? [] }
        set { assignedSizes = newValue }
        _modify {
            var sizes = assignedSizes ?? hierarchy?.stateSizes ?? []
            assignedSizes = nil
            defer { assignedSizes = sizes }
            yield &sizes
        }
    }
    /// One line for each way the save exceeded the configuration's ``SizeBudget``.
    public var budgetWarnings: [String] = []

    /// The saved hierarchy, which ``savedPaths`` and ``stateSizes`` are read from (shared by
    /// the copies of the report, and with the saves that reuse its nodes).
    var hierarchy: SavedHierarchy?
    /// ``savedPaths`` and ``stateSizes`` as set on this report, if they were.
    private var assignedPaths: [IdentifierPath]?
    private var assignedSizes: [StateSize]?

    /// A report of a save that saved (or declined), with what it skipped and wrote.
    package init(saved: Bool, skipped: [SkippedScreen] = [], byteCount: Int = 0) {
        self.saved = saved
        self.skipped = skipped
        self.byteCount = byteCount
    }

    /// The largest saved state's size in bytes, 0 if there is none, without making the lists.
    var largestStateSize: Int {
        if let assignedSizes { return assignedSizes.lazy.map(\.byteCount).max() ?? 0 }
        return hierarchy?.root.largestState ?? 0
    }

    /// How many nodes were saved, without making the lists.
    var savedNodeCount: Int {
        assignedPaths?.count ?? hierarchy?.root.nodeCount ?? 0
    }

    /// Two reports are equal when everything they say is: the same lists, however made. (A
    /// property added to the report is added here too.)
    public static func == (lhs: SaveReport, rhs: SaveReport) -> Bool {
        lhs.saved == rhs.saved && lhs.skipped == rhs.skipped && lhs.byteCount == rhs.byteCount
            && lhs.encodedStateCount == rhs.encodedStateCount && lhs.reusedStateCount == rhs.reusedStateCount
            && lhs.budgetWarnings == rhs.budgetWarnings && lhs.savedPaths == rhs.savedPaths
            && lhs.stateSizes == rhs.stateSizes
    }
}
