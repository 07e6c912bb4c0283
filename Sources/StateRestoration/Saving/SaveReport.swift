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
