/// A list's selection and scroll position saved as model identifiers, not row
/// positions: UIKit's `UIDataSourceModelAssociation`, for any screen.
///
/// Row positions go stale: between saving and the next launch the data may be
/// reordered, rows inserted, rows deleted. A screen that saves "row 3 is
/// selected" then restores the wrong row. A screen that saves "product `p-42`
/// is selected" finds `p-42` wherever it is now, and knows when it is gone.
///
/// Build a selection from the data the list shows and the positions the UI has
/// selected, keep it in the screen's `State`, and resolve it against the data
/// the list shows after the launch:
///
/// ```swift
/// struct ProductListScreen: RestorableScreen {
///     struct State: Codable, Sendable, Equatable {
///         var selection = ModelSelection<Product.ID>()
///     }
///     var state = State()
///     var products: [Product] = []          // the current data, injected when made
///     var selectedRows: [Int] = []          // what the live list shows
///     var firstVisibleRow: Int?
///
///     init(state: State) { self.state = state }
///
///     mutating func willEncodeRestorableState() {
///         state.selection = ModelSelection(
///             identifiers: products.map(\.id), selectedPositions: selectedRows,
///             firstVisiblePosition: firstVisibleRow)
///     }
///
///     mutating func decodeRestorableState(_ state: State, context: RestorationContext) {
///         self.state = state
///         let resolved = state.selection.resolve(against: products.map(\.id), reportingTo: context)
///         selectedRows = resolved.selectedPositions
///         firstVisibleRow = resolved.firstVisiblePosition
///     }
/// }
/// ```
///
/// Resolving follows these rules, so the same data always gives the same rows:
/// - A selected identifier comes back at its position in the current data; one
///   that is gone is dropped, with a diagnostic.
/// - The first visible row comes back at its new position. When it is gone, the
///   list shows the nearest of its saved neighbours that survived (see
///   ``neighbourIdentifiers``), and nil (the top of the list) when none did;
///   either way with a diagnostic.
/// - When the current data holds an identifier more than once, it resolves to
///   its first position, with a diagnostic.
///
/// The selection keeps each identifier once: building or decoding one drops
/// repeated identifiers, keeping the first.
public struct ModelSelection<ID: Hashable & Codable & Sendable>: Codable, Sendable, Equatable {
    /// The identifiers of the selected rows, each once, in the order the
    /// positions were given (the order of selection, for a list that keeps one).
    public private(set) var selectedIdentifiers: [ID]

    /// The identifier of the first visible row; nil when the list was empty or
    /// its scroll position was not saved.
    public private(set) var firstVisibleIdentifier: ID?

    /// The identifiers of the rows around the first visible one when it was
    /// saved, nearest first, the row below before the row above at equal
    /// distance: where the list scrolls to when the first visible row is gone.
    public private(set) var neighbourIdentifiers: [ID]

    /// How many rows on each side of the first visible one are saved as its
    /// neighbours, unless told otherwise.
    public static var defaultNeighbourCount: Int { 3 }

    /// Creates an empty selection: nothing selected, no scroll position.
    ///
    /// ```swift
    /// var selection = ModelSelection<String>()
    /// ```
    public init() {
        self.init(selectedIdentifiers: [])
    }

    /// Creates a selection from identifiers.
    ///
    /// Repeated identifiers are kept once, at their first place; the first
    /// visible identifier is not its own neighbour.
    ///
    /// ```swift
    /// let selection = ModelSelection(selectedIdentifiers: ["p-2", "p-7"], firstVisibleIdentifier: "p-1")
    /// ```
    ///
    /// - Parameters:
    ///   - selectedIdentifiers: The identifiers of the selected rows, in order.
    ///   - firstVisibleIdentifier: The identifier of the first visible row.
    ///   - neighbourIdentifiers: The rows to fall back to, nearest first, when the
    ///     first visible row is gone; ignored without a first visible row.
    public init(selectedIdentifiers: [ID], firstVisibleIdentifier: ID? = nil, neighbourIdentifiers: [ID] = []) {
        self.selectedIdentifiers = Self.unique(selectedIdentifiers)
        self.firstVisibleIdentifier = firstVisibleIdentifier
        self.neighbourIdentifiers =
            firstVisibleIdentifier.map { first in Self.unique(neighbourIdentifiers).filter { $0 != first } } ?? []
    }

    /// Creates a selection from the data a list shows and the positions its UI
    /// has selected and scrolled to.
    ///
    /// Positions outside `identifiers` are ignored: the UI and its data
    /// disagree, and nothing sensible can be saved for them. Two selected
    /// positions that hold the same identifier are saved once.
    ///
    /// ```swift
    /// let selection = ModelSelection(
    ///     identifiers: ["p-1", "p-2", "p-3", "p-4"], selectedPositions: [2, 0], firstVisiblePosition: 1)
    /// selection.selectedIdentifiers     // ["p-3", "p-1"]
    /// selection.firstVisibleIdentifier  // "p-2"
    /// selection.neighbourIdentifiers    // ["p-3", "p-1", "p-4"]
    /// ```
    ///
    /// - Parameters:
    ///   - identifiers: The identifiers of the rows the list shows, in order.
    ///   - selectedPositions: The selected rows' positions in `identifiers`.
    ///   - firstVisiblePosition: The first visible row's position, or nil.
    ///   - neighbourCount: How many rows on each side of the first visible one
    ///     to save as its neighbours.
    public init(
        identifiers: [ID], selectedPositions: some Sequence<Int>, firstVisiblePosition: Int? = nil,
        neighbourCount: Int = ModelSelection.defaultNeighbourCount
    ) {
        let selected = selectedPositions.compactMap { identifiers.indices.contains($0) ? identifiers[$0] : nil }
        guard let firstVisiblePosition, identifiers.indices.contains(firstVisiblePosition) else {
            self.init(selectedIdentifiers: selected)
            return
        }
        var neighbours: [ID] = []
        for distance in stride(from: 1, through: max(neighbourCount, 0), by: 1) {
            for position in [firstVisiblePosition + distance, firstVisiblePosition - distance]
            where identifiers.indices.contains(position) {
                neighbours.append(identifiers[position])
            }
        }
        self.init(
            selectedIdentifiers: selected, firstVisibleIdentifier: identifiers[firstVisiblePosition],
            neighbourIdentifiers: neighbours)
    }

    /// Maps the saved identifiers to positions in the data the list shows now.
    ///
    /// ```swift
    /// let saved = ModelSelection(selectedIdentifiers: ["p-3", "p-9"], firstVisibleIdentifier: "p-1")
    /// let resolved = saved.resolve(against: ["p-9", "p-1", "p-2"])
    /// resolved.selectedPositions     // [0]       p-3 was deleted
    /// resolved.firstVisiblePosition  // 1
    /// resolved.droppedIdentifiers    // ["p-3"]
    /// ```
    ///
    /// - Parameter identifiers: The identifiers of the rows the list shows now, in order.
    /// - Returns: The positions, and what could not be mapped back, with one
    ///   diagnostic line for each.
    public func resolve(against identifiers: [ID]) -> Resolution {
        var positions: [ID: [Int]] = [:]
        for (position, identifier) in identifiers.enumerated() {
            positions[identifier, default: []].append(position)
        }
        var resolution = Resolution()
        func position(of identifier: ID) -> Int? {
            guard let found = positions[identifier], let first = found.first else { return nil }
            if found.count > 1 && !resolution.duplicatedIdentifiers.contains(identifier) {
                resolution.duplicatedIdentifiers.append(identifier)
                let rows = found.map(String.init).joined(separator: ", ")
                resolution.diagnostics.append(
                    "\(identifier) appears \(found.count) times in the current data (rows \(rows)); using row \(first)")
            }
            return first
        }
        for identifier in selectedIdentifiers {
            if let found = position(of: identifier) {
                resolution.selectedPositions.append(found)
            } else {
                resolution.droppedIdentifiers.append(identifier)
                resolution.diagnostics.append("selected row \(identifier) no longer exists; dropped from the selection")
            }
        }
        guard let firstVisibleIdentifier else { return resolution }
        if let found = position(of: firstVisibleIdentifier) {
            resolution.firstVisiblePosition = found
            return resolution
        }
        if !resolution.droppedIdentifiers.contains(firstVisibleIdentifier) {
            resolution.droppedIdentifiers.append(firstVisibleIdentifier)
        }
        for neighbour in neighbourIdentifiers {
            if let found = position(of: neighbour) {
                resolution.firstVisiblePosition = found
                resolution.diagnostics.append(
                    "first visible row \(firstVisibleIdentifier) no longer exists; "
                        + "scrolled to its nearest surviving neighbour \(neighbour) (row \(found))")
                return resolution
            }
        }
        resolution.diagnostics.append(
            "first visible row \(firstVisibleIdentifier) no longer exists, nor do its saved neighbours; "
                + "scrolled to the top")
        return resolution
    }

    /// Maps the saved identifiers to positions in the current data, as
    /// ``resolve(against:)`` does, and reports each diagnostic to the launch.
    ///
    /// ```swift
    /// let resolved = state.selection.resolve(against: products.map(\.id), reportingTo: context)
    /// ```
    ///
    /// - Parameters:
    ///   - identifiers: The identifiers of the rows the list shows now, in order.
    ///   - context: The restoration context the screen's decode received; each
    ///     diagnostic line goes to its ``RestorationContext/report(_:)``.
    /// - Returns: The positions, and what could not be mapped back.
    public func resolve(against identifiers: [ID], reportingTo context: RestorationContext) -> Resolution {
        let resolution = resolve(against: identifiers)
        for line in resolution.diagnostics { context.report(line) }
        return resolution
    }

    /// Each identifier once, at its first place.
    private static func unique(_ identifiers: [ID]) -> [ID] {
        var seen: Set<ID> = []
        return identifiers.filter { seen.insert($0).inserted }
    }

    // MARK: Codable

    private enum CodingKeys: String, CodingKey {
        case selectedIdentifiers = "selected"
        case firstVisibleIdentifier = "firstVisible"
        case neighbourIdentifiers = "neighbours"
    }

    /// Decodes a selection; missing fields are empty, and repeated identifiers
    /// are kept once, as ``init(selectedIdentifiers:firstVisibleIdentifier:neighbourIdentifiers:)`` keeps them.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when a field holds something other than identifiers.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            selectedIdentifiers: try container.decodeIfPresent([ID].self, forKey: .selectedIdentifiers) ?? [],
            firstVisibleIdentifier: try container.decodeIfPresent(ID.self, forKey: .firstVisibleIdentifier),
            neighbourIdentifiers: try container.decodeIfPresent([ID].self, forKey: .neighbourIdentifiers) ?? [])
    }
}
