extension ModelSelection {
    /// A saved selection mapped back to positions in the data a list shows now,
    /// with what could not be mapped.
    ///
    /// ```swift
    /// let resolved = saved.resolve(against: products.map(\.id))
    /// list.select(rows: resolved.selectedPositions)
    /// list.scroll(toRow: resolved.firstVisiblePosition ?? 0)
    /// for line in resolved.diagnostics { logger.notice("\(line)") }
    /// ```
    public struct Resolution: Sendable, Equatable {
        /// The positions of the selected rows that still exist, in the saved order.
        public var selectedPositions: [Int]

        /// The position to scroll to: the first visible row's, or its nearest
        /// surviving neighbour's when it is gone; nil when neither survived or
        /// none was saved.
        public var firstVisiblePosition: Int?

        /// The saved identifiers (selected, then the first visible one) that the
        /// current data no longer holds, each once.
        public var droppedIdentifiers: [ID]

        /// The saved identifiers that the current data holds more than once; each
        /// resolved to its first position.
        public var duplicatedIdentifiers: [ID]

        /// One line for each identifier dropped, replaced or found more than once.
        public var diagnostics: [String]

        /// Creates a resolution.
        ///
        /// ```swift
        /// let nothing = ModelSelection<String>.Resolution()
        /// ```
        ///
        /// - Parameters:
        ///   - selectedPositions: The positions of the selected rows.
        ///   - firstVisiblePosition: The position to scroll to.
        ///   - droppedIdentifiers: The identifiers no longer in the data.
        ///   - duplicatedIdentifiers: The identifiers found more than once.
        ///   - diagnostics: One line for each problem.
        public init(
            selectedPositions: [Int] = [], firstVisiblePosition: Int? = nil, droppedIdentifiers: [ID] = [],
            duplicatedIdentifiers: [ID] = [], diagnostics: [String] = []
        ) {
            self.selectedPositions = selectedPositions
            self.firstVisiblePosition = firstVisiblePosition
            self.droppedIdentifiers = droppedIdentifiers
            self.duplicatedIdentifiers = duplicatedIdentifiers
            self.diagnostics = diagnostics
        }
    }
}
